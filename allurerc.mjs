// Allure Report 3 (the `allure` CLI): the HTML report of a conformance run. History lives outside the output
// folder, which is deleted before each generate (Allure does not clean it). ALLURE_HISTORY_PATH lets
// `npm run report` rebuild a report without appending the same run to the history twice.
/* global process */
import { defineConfig } from 'allure';

export default defineConfig({
  name: 'Ledger API conformance',
  output: './reports/allure',
  historyPath: process.env.ALLURE_HISTORY_PATH || './reports/history/history.jsonl',
  historyLimit: 50,
  plugins: {
    awesome: {
      options: {
        singleFile: false,
        reportLanguage: 'en',
        groupBy: ['epic', 'feature', 'story'],
      },
    },
  },
});
