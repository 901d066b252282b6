// The report as a QA engineer sees it: built from a run with failures (the faulty sandbox and the report
// samples; support/shared-runs.ts's kindsRun, shared with the other report self-tests), served on 127.0.0.1 and opened in
// Debian's Chromium through playwright-core (no browser download). The rule ids, a failing test's steps and
// its redacted transcript must be on screen, and no request may leave the machine (every non-loopback request
// is blocked and recorded). The single-file variant must open from file:// the same way. A screenshot is left
// in reports/selftest/report-browser.png.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from '../support/test';
import {
  noChromium,
  openBrowser,
  pageExpect as expect,
  reportTests,
  ROOT,
  serveStatic,
} from '../support/report-kit';
import { kindsRun } from '../support/shared-runs';
import { ENV_KEYS } from '../../reporters/allure-results';

/** What the key check measures in the page (the self-tests compile without the DOM's types). */
interface Measured {
  getBoundingClientRect(): { width: number };
}
interface Ranged {
  selectNodeContents(node: unknown): void;
}

const SCREENSHOT_DIR = resolve(ROOT, 'reports', 'selftest');

test.describe.configure({ mode: 'serial' });

test.describe('the report in a real browser', () => {
  const why = noChromium();
  test.skip(why !== undefined, why);

  let out: string;
  let server: Awaited<ReturnType<typeof serveStatic>>;
  let browser: Awaited<ReturnType<typeof openBrowser>>;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    ({ dir: out } = await kindsRun());
    server = await serveStatic(join(out, 'allure'));
    browser = await openBrowser();
  });

  // CI prints a failure's output, not its error-context file: say where the page was and what it showed.
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status === testInfo.expectedStatus || !browser) return;
    const { page } = browser;
    const shown = await page
      .locator('body')
      .ariaSnapshot({ timeout: 5_000 })
      .catch((e: unknown) => `(no snapshot: ${String(e)})`);
    console.log(`page at the failure: ${page.url()}\n${shown.slice(0, 4_000)}`);
  });

  test.afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the overview shows the rule ids, the categories and the environment block', async () => {
    const { page } = browser;
    await page.goto(server.url);
    // Groups holding failures open by themselves: the failing rules are on screen at once.
    for (const id of ['VET-PAGE-ORDER', 'GEN-NO-5XX', 'GEN-ERROR-BODY']) {
      await expect(page.getByText(id, { exact: true }).first(), id).toBeVisible();
    }
    // Groups of passed tests start collapsed: the search box finds a rule by its id, then open the groups
    // (operation → rule group → rule id).
    await page.getByPlaceholder('Search tests').fill('VER-AUTH-REQUIRED');
    // The search applies after a pause; until then the version group is open (it holds an unexpected pass).
    await expect(page.getByText('VET-PAGE-ORDER', { exact: true })).toHaveCount(0);
    for (const group of ['GET /v2/version', 'Version', 'VER-AUTH-REQUIRED']) {
      await page.getByText(group, { exact: true }).first().click();
    }
    await expect(page.getByText(/^VER-AUTH-REQUIRED the version operation requires/).first()).toBeVisible();
    await page.getByPlaceholder('Search tests').fill('');
    // The cleared search applies after the same pause (150 ms), and then replaces the tab buttons with new
    // ones: a click in that moment can miss the tab. One CI run clicked and never saw the Categories tab.
    // Wait until the search has applied, and check the click took.
    await expect(page).not.toHaveURL(/[?&]query=/);
    await expect(page.getByText(ENV_KEYS.version, { exact: true })).toBeVisible();
    await expect(page.getByText(/vet-entries-unsorted/)).toBeVisible();
    // Every key of the environment block shows whole: none is cut ("features.experi…").
    for (const key of [ENV_KEYS.target, ENV_KEYS.faults, ENV_KEYS.version, ENV_KEYS.capabilities]) {
      const shown = page.getByText(key, { exact: true }).first();
      await expect(shown, key).toBeVisible();
      // The text's own width against its box's (Allure cuts it with an ellipsis, a fraction of a pixel over).
      const cut = await shown.evaluate((e) => {
        const el = e as unknown as Measured & { ownerDocument: { createRange(): Measured & Ranged } };
        const text = el.ownerDocument.createRange();
        text.selectNodeContents(el);
        return text.getBoundingClientRect().width > el.getBoundingClientRect().width;
      });
      expect(cut, `${key} is cut`).toBe(false);
    }
    // The Categories tab (not the filter of the same name), one category per verdict seen in this run.
    await page.getByRole('button', { name: /^Categories \d+$/ }).click();
    await expect(page).toHaveURL(/#categories$/);
    for (const name of [
      'Non-conformance: the target breaks the rule',
      "Known deviation: Canton's baseline for this participant version",
      'Environment / inconclusive: target unreachable, timeouts, 5xx, transport',
      'Harness defect: broken by the harness, no verdict on the target',
    ]) {
      await expect(page.getByText(name), name).toBeVisible();
    }
  });

  test("a known deviation's page shows whose it is, its owner, ticket and end date, and its reason", async () => {
    const { page } = browser;
    const excused = reportTests(out).find((t) => t.name.startsWith('VER-AUTH-REQUIRED'))!;
    await page.goto(`${server.url}#${excused.id}`);
    await expect(page.getByText(excused.name).first()).toBeVisible();
    // Allure shows no message for its status "unknown": the description (Allure puts it in a frame) says it, a
    // waiver's naming its team's file instead (selftest/report/waiver-page.test.ts).
    const description = page.frameLocator('iframe').first();
    await expect(
      description.getByText(
        /^Known deviation \(Canton's baseline\) — owner not named · ticket not named · until no end date$/,
      ),
    ).toBeVisible();
    await expect(
      description.getByText(/^known deviation of canton 3\.4\.\d+: Canton's VersionService/),
    ).toBeVisible();
  });

  test('a failing test shows its steps per request and, under After Hooks, the redacted transcript', async () => {
    const { page } = browser;
    const failing = reportTests(out).find((t) => t.name.startsWith('VET-PAGE-ORDER'))!;
    await page.goto(`${server.url}#${failing.id}`);
    await expect(page.getByText(failing.name).first()).toBeVisible();
    await expect(page.getByText('Category: Non-conformance: the target breaks the rule')).toBeVisible();
    await expect(page.getByText('POST /v2/package-vetting/list (page 1)').first()).toBeVisible();
    await expect(page.getByText('clause', { exact: true })).toBeVisible();
    await page.getByText('After Hooks', { exact: true }).click();
    await expect(page.getByText('reproduce with curl')).toBeVisible();
    await page.getByText('HTTP transcript (Authorization redacted)').click();
    await expect(page.getByText('authorization: Bearer <redacted>').first()).toBeVisible();
    await expect(page.getByText('#1 POST http://127.0.0.1:', { exact: false }).first()).toBeVisible();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'report-browser.png'), fullPage: true });
  });

  test('an inconclusive test shows the transport failure in its transcript', async () => {
    const { page } = browser;
    const gone = reportTests(out).find((t) => t.name.startsWith('GEN-NO-5XX'))!;
    await page.goto(`${server.url}#${gone.id}`);
    await expect(page.getByText(/^Category: Environment \/ inconclusive/)).toBeVisible();
    await page.getByText('After Hooks', { exact: true }).click();
    await page.getByText('HTTP transcript (Authorization redacted)').click();
    await expect(page.getByText(/→ no response: .*ECONNREFUSED/).first()).toBeVisible();
  });

  test('the single-file report opens from file:// with the same content', async () => {
    const { page } = browser;
    await page.goto(pathToFileURL(join(out, 'allure-single.html')).href);
    await expect(page.getByText('VET-PAGE-ORDER', { exact: true }).first()).toBeVisible();
    await expect(page.getByText(ENV_KEYS.version, { exact: true })).toBeVisible();
  });

  test('no request left the machine', () => {
    expect(browser.external).toEqual([]);
  });
});
