// `npm run compare`: runs side by side. The pure part (reading a run, the rows, the Markdown and HTML) against
// hand-written conformance.json files — catalogues that differ, a run without target.json, reasons full of
// markup, a URL with credentials; the command's one line and exit 2 for a folder that is no run; the HTML
// opened from file:// in Debian's Chromium with the rows of the Markdown and no request out. A real run's
// folder compared: selftest/history/intermittent.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '../support/test';
import type { ConsoleMessage } from 'playwright-core';
import { ABSENT, compareRuns, CompareInputError, readRun } from '../../reporters/compare-runs';
import {
  renderCompareHtml,
  renderCompareMarkdown,
  renderCompareSummary,
} from '../../reporters/compare-render';
import type { ChildOutcome } from '../support/child-run';
import {
  freshReportsDir,
  noChromium,
  openBrowser,
  pageExpect,
  runTsx,
  type RunOutcome,
} from '../support/report-kit';
import { EXIT } from '../../core/exit-codes';

/** A run folder as a run or a nightly artifact leaves it: conformance.json, and target.json when given. */
function writeRun(dir: string, matrix: unknown, target?: unknown): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify(matrix));
  if (target !== undefined) writeFileSync(join(dir, 'target.json'), JSON.stringify(target));
  return dir;
}

const NASTY = `expected <200> & got "500" | it's <script>alert(1)</script>`;
const PARTICIPANT_B = `participant2::1220${'ab'.repeat(32)}`;

/** An older run (no runId, no participantId in conformance.json) of an older catalogue, and a newer one. */
function handRuns(root: string): { older: string; newer: string } {
  const older = writeRun(
    join(root, 'older'),
    {
      generatedAt: '2026-11-20T02:17:00.000Z',
      status: 'failed',
      target: {
        baseUrl: 'https://qa:s3cret-pw@participant.example.com/api/json?access_token=tok-123',
        version: '3.4.11',
      },
      rules: [
        { id: 'R-A', title: 'a passes', verdict: 'pass', reasons: [] },
        { id: 'R-B', title: 'b <fails> here', verdict: 'fail', reasons: [NASTY] },
        { id: 'R-OLD', title: 'gone from the catalogue since', verdict: 'pass', reasons: [] },
        { id: 'R-C', title: 'c skips', verdict: 'skip', reasons: ['needs a second user'] },
      ],
    },
    { identity: { LEDGER_PARTICIPANT_ID: { value: 'participant1::1220cafe', source: 'discovered' } } },
  );
  const newer = writeRun(join(root, 'newer'), {
    generatedAt: '2026-11-25T02:17:00.000Z',
    runId: 'nightly-7-1',
    status: 'failed',
    target: {
      baseUrl: 'https://participant.example.com/api/json',
      version: '3.5.2',
      participantId: PARTICIPANT_B,
    },
    rules: [
      { id: 'R-A', title: 'a passes', verdict: 'pass', reasons: [] },
      { id: 'R-B', title: 'b <fails> here', verdict: 'pass', reasons: [] },
      { id: 'R-C', title: 'c skips', verdict: 'skip', reasons: ['needs a second user'] },
      { id: 'R-NEW', title: 'new in the catalogue', verdict: 'fail', reasons: ['Error: new rule broken'] },
    ],
  });
  return { older, newer };
}

interface MdRow {
  id: string;
  section: 'differ' | 'agree';
  /** Each run's verdict label (the cell up to its reason). */
  verdicts: string[];
}

/** The rule rows of compare.md, in order, with the section each is in. */
function mdRows(md: string): MdRow[] {
  const rows: MdRow[] = [];
  let section: MdRow['section'] | undefined;
  for (const line of md.split('\n')) {
    if (line.startsWith('## Rules that differ')) section = 'differ';
    else if (line.startsWith('## Rules that agree')) section = 'agree';
    else if (line.startsWith('## ')) section = undefined;
    else if (section && line.startsWith('| ') && !line.startsWith('| rule |')) {
      const cells = line
        .slice(2, -2)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim());
      rows.push({ id: cells[0]!, section, verdicts: cells.slice(1).map((c) => c.split(' — ')[0]!) });
    }
  }
  return rows;
}

const compareCli = (args: string[]): Promise<RunOutcome> =>
  runTsx(['scripts/history/compare.ts', ...args], {});
const show = (r: ChildOutcome) => `exit ${r.status}\n${r.stdout.slice(-3000)}\n${r.stderr}`;

test.describe('comparing runs: the pure part, from hand-written runs', () => {
  let root: string;
  let remove: () => void;
  test.beforeAll(() => {
    ({ dir: root, remove } = freshReportsDir('compare-unit'));
  });
  test.afterAll(() => remove?.());

  test('one row per rule of any run, those that differ first; a rule a catalogue lacks is said so', () => {
    const { older, newer } = handRuns(join(root, 'rows'));
    const c = compareRuns([readRun(older), readRun(newer)]);
    expect(c.rows.map((r) => [r.id, r.differs, r.cells.map((x) => x.verdict)])).toEqual([
      ['R-B', true, ['fail', 'pass']],
      ['R-OLD', true, ['pass', ABSENT]],
      ['R-NEW', true, [ABSENT, 'fail']],
      ['R-A', false, ['pass', 'pass']],
      ['R-C', false, ['skip', 'skip']],
    ]);
    expect(c.differing).toBe(3);
    const md = renderCompareMarkdown(c);
    expect(mdRows(md)).toEqual([
      { id: 'R-B', section: 'differ', verdicts: ['FAIL', 'pass'] },
      { id: 'R-OLD', section: 'differ', verdicts: ['pass', "not in this run's catalogue"] },
      { id: 'R-NEW', section: 'differ', verdicts: ["not in this run's catalogue", 'FAIL'] },
      { id: 'R-A', section: 'agree', verdicts: ['pass', 'pass'] },
      { id: 'R-C', section: 'agree', verdicts: ['skip', 'skip'] },
    ]);
    expect(md).toContain('3 of 5 rules differ between the 2 runs');
    expect(renderCompareSummary(c)).toMatch(/R-OLD\s+pass \| not in this run's catalogue\n/);
  });

  test('each column is headed by participant, version and date; the URL shows no credential', () => {
    const { older, newer } = handRuns(join(root, 'heads'));
    const c = compareRuns([readRun(older), readRun(newer)]);
    // conformance.json's target first; an older run's participant from target.json's identity.
    expect(c.runs.map((r) => r.target.participantId)).toEqual(['participant1::1220cafe', PARTICIPANT_B]);
    const md = renderCompareMarkdown(c);
    const head = md.split('\n').find((l) => l.startsWith('| rule |'))!;
    expect(head).toContain('participant1::1220cafe<br>3.4.11 · 2026-11-20 02:17 UTC<br>');
    expect(head).toContain('participant2::1220abab…abab<br>3.5.2 · 2026-11-25 02:17 UTC<br>');
    expect(md).toContain(`participant ${PARTICIPANT_B}`);
    const all = [md, renderCompareHtml(c), renderCompareSummary(c)].join('\n');
    expect(all).toContain('https://participant.example.com/api/json');
    expect(all).not.toMatch(/https:\/\/[^/\s]*@/);
    for (const secret of ['s3cret-pw', 'tok-123', 'access_token']) expect(all).not.toContain(secret);
    // A run without target.json nor a participant id still has a column.
    const bare = writeRun(join(root, 'heads', 'bare'), { rules: [{ id: 'R-A', verdict: 'pass' }] });
    expect(renderCompareMarkdown(compareRuns([readRun(bare)]))).toContain(
      '| rule | participant not recorded<br>version unknown · date unknown<br>target unknown |',
    );
  });

  test('reasons and titles are escaped in the HTML and the Markdown', () => {
    const { older, newer } = handRuns(join(root, 'escape'));
    const c = compareRuns([readRun(older), readRun(newer)]);
    const html = renderCompareHtml(c);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<fails>');
    expect(html).toContain(
      'title="expected &lt;200&gt; &amp; got &quot;500&quot; | it&#39;s &lt;script&gt;alert(1)&lt;/script&gt;"',
    );
    expect(html).toContain('b &lt;fails&gt; here');
    const md = renderCompareMarkdown(c);
    expect(md).not.toContain('<script');
    expect(md).toContain(
      `FAIL — expected &lt;200&gt; &amp; got "500" \\| it's &lt;script&gt;alert(1)&lt;/script&gt;`,
    );
    // Every row of a table has its columns: an escaped pipe splits no cell.
    for (const row of mdRows(md)) expect(row.verdicts, row.id).toHaveLength(2);
  });

  test('a folder that is no run, or whose conformance.json is no rule matrix, is one message naming it', () => {
    const dir = join(root, 'bad');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'x');
    const broken = writeRun(join(dir, 'broken'), {});
    writeFileSync(join(broken, 'conformance.json'), '{');
    const cases: [string, () => void, RegExp][] = [
      [
        'no conformance.json',
        () => readRun(dir),
        /^.*bad is not a conformance run: no conformance.json there \(/,
      ],
      ['no folder', () => readRun(join(dir, 'nope')), /nope is not a conformance run: no such folder/],
      ['a file', () => readRun(join(dir, 'notes.txt')), /notes.txt is not a conformance run: a file/],
      ['broken JSON', () => readRun(broken), /broken\/conformance.json is not a rule matrix: .*JSON/],
      ['no rules', () => readRun(writeRun(join(dir, 'norules'), { status: 'passed' })), /no "rules" list/],
      [
        'a rule without a verdict',
        () => readRun(writeRun(join(dir, 'noverdict'), { rules: [{ id: 'R-A' }] })),
        /rules\[0\] has no id or no verdict/,
      ],
    ];
    for (const [name, read, message] of cases) {
      expect(read, name).toThrow(CompareInputError);
      expect(read, name).toThrow(message);
    }
  });

  test('the command: a folder that is no run is one line and exit 2; catalogues that differ compare', async () => {
    test.setTimeout(60_000);
    const notRun = join(root, 'cli', 'downloads');
    mkdirSync(notRun, { recursive: true });
    const { older, newer } = handRuns(join(root, 'cli'));
    const bad = await compareCli([older, notRun]);
    expect(bad.status, show(bad)).toBe(EXIT.badSetting);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(
      `ledger-conformance: ${notRun} is not a conformance run: no conformance.json there (give the reports ` +
        'folder of a run — reports/ after npm run conformance — or an unzipped conformance-report-<target> ' +
        'artifact of the nightly)\n',
    );
    const unknown = await compareCli(['--outdir', 'x', older]);
    expect(unknown.status, show(unknown)).toBe(EXIT.badSetting);
    expect(unknown.stderr).toMatch(
      /^ledger-conformance: Unknown option '--outdir': npm run compare -- \[--out DIR\][^\n]*\n$/,
    );

    const out = join(root, 'cli', 'out');
    const good = await compareCli(['--out', out, older, newer]);
    expect(good.status, show(good)).toBe(0);
    expect(good.stdout).toContain('3 of 5 rules differ between the 2 runs');
    expect(good.stdout).toContain(`Wrote ${join(out, 'compare.md')} and ${join(out, 'compare.html')}`);
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    expect(md).toBe(renderCompareMarkdown(compareRuns([readRun(older), readRun(newer)])));
    expect(readFileSync(join(out, 'compare.html'), 'utf8')).toContain('data-rule="R-NEW"');
  });

  test('compare.html opens from file:// in Chromium, offline, with the rows of compare.md', async () => {
    const why = noChromium();
    test.skip(why !== undefined, why);
    test.setTimeout(120_000);
    const { older, newer } = handRuns(join(root, 'browser'));
    const c = compareRuns([readRun(older), readRun(newer)]);
    const file = join(root, 'browser', 'compare.html');
    writeFileSync(file, renderCompareHtml(c));
    const browser = await openBrowser();
    // A load the page's Content-Security-Policy refuses never reaches the network: the console says it.
    const refused: string[] = [];
    browser.page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') refused.push(m.text());
    });
    try {
      const { page } = browser;
      await page.goto(pathToFileURL(file).href);
      await pageExpect(page.getByRole('heading', { name: 'Conformance runs compared' })).toBeVisible();
      // In page order: each row says by its class which part it is in.
      const shown: MdRow[] = [];
      for (const row of await page.locator('tr[data-rule]').all()) {
        shown.push({
          id: (await row.getAttribute('data-rule')) ?? '',
          section: (await row.getAttribute('class')) === 'differs' ? 'differ' : 'agree',
          verdicts: await row.locator('td.verdict .label').allTextContents(),
        });
      }
      expect(shown).toEqual(mdRows(renderCompareMarkdown(c)));
      // The reason is on hover: the failing cell's title is the run's reason, as written.
      await pageExpect(page.locator('tr[data-rule="R-B"] td.verdict').nth(0)).toHaveAttribute('title', NASTY);
      expect(browser.external).toEqual([]);
      expect(refused).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
