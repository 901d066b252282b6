// Allure Report 3: the HTML report of a conformance run, built by scripts/report/allure-report.ts
// (`npm run conformance`, `npm run report`), which labels every result with the rule matrix's verdict first and
// hands this config to Allure's generator. History lives outside the output folder, which is deleted before each
// generate (Allure does not clean it); the build passes its own history path (a throwaway copy when it rebuilds
// a run already in the history). The categories match the verdict label's words from the one table of them
// (reporters/verdicts.ts VERDICT_WORDS), and the labels hidden are the harness's own (core/verdict-marks.ts).
import type { resolveConfig } from '@allurereport/core';
import { DEVIATION_LABEL, TEST_ID_LABEL } from './core/verdict-marks';
import { VERDICT_LABEL } from './reporters/allure-results';
import { VERDICT_WORDS, type TestVerdict } from './reporters/verdicts';

type Config = Parameters<typeof resolveConfig>[0];

/** Results labelled with this verdict (and with `more`'s labels): a category's matcher. */
const verdict = (v: TestVerdict, more: Record<string, string> = {}) => ({
  labels: { [VERDICT_LABEL]: `^${VERDICT_WORDS[v].allure}$`, ...more },
});

const awesome = {
  reportLanguage: 'en',
  groupBy: ['epic', 'feature', 'story'],
} as const;

const config: Config = {
  name: 'Ledger API conformance',
  output: './reports/allure',
  // The build passes each target's own history (scripts/report/allure-report.ts, allureHistoryOf).
  historyPath: './reports/history/history.jsonl',
  historyLimit: 50,
  // The Playwright test id only joins results to the matrix's verdicts: nothing for a reader.
  hideLabels: [TEST_ID_LABEL, '_fallbackTestCaseId'],
  categories: {
    // One category per verdict: first match wins.
    rules: [
      {
        id: 'non-conformance',
        name: 'Non-conformance: the target breaks the rule',
        matchers: verdict('fail'),
        groupBy: [{ label: 'feature' }],
        groupByMessage: false,
        expand: true,
      },
      // A known deviation's Allure status is "unknown" (reporters/allure-results.ts): these two say which kind.
      {
        id: 'known-deviation',
        name: "Known deviation: Canton's baseline for this participant version",
        matchers: verdict('known-deviation', { [DEVIATION_LABEL]: '^canton$' }),
        groupByMessage: false,
      },
      {
        id: 'waived',
        name: "Waived: a team's expectations file excuses the failure",
        matchers: verdict('known-deviation'),
        groupByMessage: false,
      },
      {
        id: 'baseline-outdated',
        name: 'Known deviation no longer seen: update the baseline',
        matchers: verdict('unexpected-pass'),
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
        matchers: verdict('setup'),
      },
      {
        id: 'harness-defect',
        name: 'Harness defect: broken by the harness, no verdict on the target',
        matchers: verdict('harness-defect'),
      },
    ],
  },
  plugins: {
    // The served report (reports/allure) and the same report as one file for mailing (reports/allure-single.html).
    awesome: { options: { ...awesome, singleFile: false } },
    single: { import: '@allurereport/plugin-awesome', options: { ...awesome, singleFile: true } },
  },
};

export default config;
