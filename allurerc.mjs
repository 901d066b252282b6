// Allure Report 3 (the `allure` CLI): the HTML report of a conformance run, built by
// scripts/report/allure-report.ts (`npm run conformance`, `npm run report`), which labels every result with
// the rule matrix's verdict first. History lives outside the output folder, which is deleted before each
// generate (Allure does not clean it); the build passes its own history path (a throwaway copy when it
// rebuilds a run already in the history). No `import { defineConfig } from 'allure'`: that module is the
// Allure CLI, which parses argv and prints its help on import; the config is a plain object.

// One category per verdict (the `verdict` label, from the rule matrix): first match wins.
const verdict = (value) => ({ labels: { verdict: `^${value}$` } });

const awesome = {
  reportLanguage: 'en',
  groupBy: ['epic', 'feature', 'story'],
};

/** @type {import('@allurereport/plugin-api').Config} */
export default {
  name: 'Ledger API conformance',
  output: './reports/allure',
  // The build passes each target's own history (scripts/report/allure-report.ts, allureHistoryOf).
  historyPath: './reports/history/history.jsonl',
  historyLimit: 50,
  // The Playwright test id only joins results to the matrix's verdicts: nothing for a reader.
  hideLabels: ['playwrightTestId', '_fallbackTestCaseId'],
  categories: {
    rules: [
      {
        id: 'non-conformance',
        name: 'Non-conformance: the target breaks the rule',
        matchers: verdict('non-conformance'),
        groupBy: [{ label: 'feature' }],
        groupByMessage: false,
        expand: true,
      },
      // A known deviation's Allure status is "unknown" (reporters/allure-results.ts): these two say which kind.
      {
        id: 'known-deviation',
        name: "Known deviation: Canton's baseline for this participant version",
        matchers: { labels: { verdict: '^known deviation$', deviation: '^canton$' } },
        groupByMessage: false,
      },
      {
        id: 'waived',
        name: "Waived: a team's expectations file excuses the failure",
        matchers: verdict('known deviation'),
        groupByMessage: false,
      },
      {
        id: 'baseline-outdated',
        name: 'Known deviation no longer seen: update the baseline',
        matchers: verdict('unexpected pass'),
        groupByMessage: false,
      },
      {
        id: 'inconclusive',
        name: 'Environment / inconclusive: target unreachable, timeouts, 5xx, transport',
        matchers: verdict('inconclusive'),
      },
      {
        id: 'setup',
        name: "Set-up mistake: the harness's configuration, not the participant (fix the setting named)",
        matchers: verdict('set-up mistake'),
      },
      {
        id: 'harness-defect',
        name: 'Harness defect: broken by the harness, no verdict on the target',
        matchers: verdict('harness defect'),
      },
    ],
  },
  plugins: {
    // The served report (reports/allure) and the same report as one file for mailing (reports/allure-single.html).
    awesome: { options: { ...awesome, singleFile: false } },
    single: { import: '@allurereport/plugin-awesome', options: { ...awesome, singleFile: true } },
  },
};
