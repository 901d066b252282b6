// Before any test runs: an expectations entry that names one test (`test`) of a rule this run selected must name
// a test the suite has. The catalogue check (rules/expectations.ts) holds the title up to the rule's title; the
// detail after it (` — <operation>`, ` — <feature>`) is the spec's, known only once the suite is loaded — here,
// where Playwright hands the reporters the suite. A typo there would otherwise surface only after the whole run,
// as a stale entry. One line naming the file, the entry and the titles it could mean; exit 2, as a wrong setting.
import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';
import { settings } from '../core/settings';
import { ruleIdOfTitle } from '../rules/catalogue';
import { loadLayers, matchesTest, placed } from '../rules/expectations';
import { EXIT } from '../core/exit-codes';

export default class ExpectationsTitlesReporter implements Reporter {
  onBegin(_config: FullConfig, suite: Suite): void {
    const titles = suite.allTests().map((t) => t.title);
    const setting = settings().expectations;
    // Canton's baseline names rules only; a team's files are what may name a test.
    for (const d of placed(loadLayers(setting, undefined))) {
      if (d.test === undefined) continue;
      const ofRule = titles.filter((t) => ruleIdOfTitle(t) === d.rule);
      if (ofRule.length === 0 || ofRule.some((t) => matchesTest(d, d.rule, t))) continue;
      const some = ofRule.slice(0, 3).map((t) => `"${t.slice(d.rule.length).trim()}"`);
      process.stderr.write(
        `ledger-conformance: LEDGER_EXPECTATIONS=${setting}: ${d.key.replace(/#(\d+)$/, ', entry $1')} (${d.rule}): "test" names no test of the suite: fix it to one of ${some.join(', ')}${ofRule.length > 3 ? ` (${ofRule.length} in all)` : ''}, or leave it out to name every test of the rule\n`,
      );
      process.exit(EXIT.badSetting);
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}
