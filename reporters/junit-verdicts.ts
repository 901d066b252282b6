// The rule matrix's verdicts in Playwright's JUnit file: a known deviation (an expected failure that failed) is
// a pass to Playwright, so its JUnit testcase would count as passed. It is marked skipped with the message
// `known deviation: <reason>` instead — the convention of an expected failure in JUnit (pytest's xfail) — so a
// CI dashboard counts it apart from the passes, in the matrix's words; a FAIL that passed on re-check gets the
// `<failure>` Playwright's retry took from it. Idempotent: the report build may run again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { VERDICT_WORDS, type TestVerdict } from './verdicts';
import { verdictText } from './verdict-words';
import { boundReason, hintsSaidAs } from './reason';
import { withoutInconclusive } from '../core/verdict-marks';

const KNOWN = VERDICT_WORDS['known-deviation'].word;

export interface JUnitVerdict {
  title: string;
  file: string;
  verdict: TestVerdict;
  reason?: string;
  recheck?: 'passed' | 'failed';
  intermittent?: boolean;
}

const escapeXml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];

type Count = 'skipped' | 'failures' | 'errors';

/** Adds `by` to each named count attribute (skipped, failures, errors) of an opening tag. */
const countBy = (tag: string, counts: Partial<Record<Count, number>>, times: number) =>
  Object.entries(counts).reduce(
    (t, [count, by]) =>
      t.replace(new RegExp(`\\b${count}="(\\d+)"`), (_, n: string) => `${count}="${Number(n) + by * times}"`),
    tag,
  );

interface Marking {
  /** The tests whose testcase is rewritten. */
  tests: readonly JUnitVerdict[];
  /** The testcase's new inner XML, or undefined to leave it as it is. */
  rewrite: (inner: string, t: JUnitVerdict) => string | undefined;
  /** What a rewritten case adds to the count attributes of its suite and of the root, if anything. */
  counts?: Partial<Record<Count, number>>;
}

/** The testcase has a verdict element of its own (CDATA aside). */
const hasVerdictElement = (inner: string) =>
  /<(skipped|failure|error)\b/.test(inner.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ''));

/** A verdict element first in an unmarked testcase, or nothing. */
const addElement =
  (element: (t: JUnitVerdict) => string) =>
  (inner: string, t: JUnitVerdict): string | undefined =>
    hasVerdictElement(inner) ? undefined : `\n${element(t)}${inner}`;

/** Rewrites each named testcase as `m.rewrite` says; returns how many it rewrote. */
function markCases(path: string, m: Marking): number {
  if (!existsSync(path) || m.tests.length === 0) return 0;
  const xml = readFileSync(path, 'utf8');
  let marked = 0;
  // Suite by suite, so each suite's count follows its cases.
  const out = xml.replace(
    /(<testsuite\b[^>]*>)([\s\S]*?)(<\/testsuite>)/g,
    (_, open: string, body: string, close: string) => {
      let inSuite = 0;
      const cases = body.replace(
        /(<testcase\b[^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g,
        (whole: string, head: string, _rest: string, inner: string | undefined) => {
          const name = unescapeXml(attr(head, 'name') ?? '');
          const file = unescapeXml(attr(head, 'classname') ?? '');
          const t = m.tests.find(
            (d) => d.file === file && (name === d.title || name.endsWith(` › ${d.title}`)),
          );
          const rewritten = t === undefined ? undefined : m.rewrite(inner ?? '', t);
          if (rewritten === undefined) return whole;
          inSuite++;
          return `${head}>${rewritten}</testcase>`;
        },
      );
      marked += inSuite;
      return `${countBy(open, m.counts ?? {}, inSuite)}${cases}${close}`;
    },
  );
  if (marked === 0) return 0;
  const root = out.replace(/<testsuites\b[^>]*>/, (tag) => countBy(tag, m.counts ?? {}, marked));
  writeFileSync(path, root);
  return marked;
}

/** A FAIL is a `<failure>`; a test with no verdict on the target (inconclusive, a defect, set-up) an `<error>`. */
const ELEMENT_OF: Partial<Record<TestVerdict, 'failure' | 'error'>> = {
  fail: 'failure',
  'unexpected-pass': 'failure',
  inconclusive: 'error',
  'harness-defect': 'error',
  setup: 'error',
};

/** The first verdict element Playwright wrote in a testcase: its name and whether it closes itself. */
const PLAYWRIGHT_ELEMENT = /<(failure|error|skipped)\b[^>]*?(\/?)>/;

/** The message of a test's element: its verdict's words and its reason, bounded. */
const elementMessage = (t: JUnitVerdict) => {
  const words = verdictText(t.verdict, t);
  const reason = t.reason ? boundReason(withoutInconclusive(t.reason)) : undefined;
  return reason === undefined || reason.toLowerCase().startsWith(words.toLowerCase())
    ? (reason ?? words)
    : `${words}: ${reason}`;
};

/** Rewrites a case whose element is `from` as the element its verdict takes, in the matrix's words. */
const retag =
  (from: 'failure' | 'error' | 'skipped') =>
  (inner: string, t: JUnitVerdict): string | undefined => {
    const found = PLAYWRIGHT_ELEMENT.exec(inner);
    const to = ELEMENT_OF[t.verdict];
    if (found?.[1] !== from || to === undefined) return undefined;
    const message = elementMessage(t);
    const opening = `<${to} message="${escapeXml(message)}" type="${escapeXml(VERDICT_WORDS[t.verdict].word)}"${found[2]}>`;
    const said = inner.replace(PLAYWRIGHT_ELEMENT, opening).replace(`</${from}>`, `</${to}>`);
    return hintsSaidAs(said, message);
  };

/**
 * One verdict, one element: Playwright writes `<error>` for a FAIL found by a helper's thrown Error (a custom
 * matcher's included) and `<failure>` for one found by `expect`, `<failure>` for an inconclusive test whose
 * assertion saw a transport error and `<skipped>` for one that ended at its start, the target gone. Each is rewritten as its verdict's element — a FAIL `<failure>` whatever
 * found it, a test with no verdict on the target `<error>` — with the matrix's reason as its message and its
 * counts moved. Returns how many cases it rewrote.
 */
export function markVerdictElements(path: string, tests: readonly JUnitVerdict[]): number {
  const failing = tests.filter((t) => ELEMENT_OF[t.verdict] === 'failure');
  const erring = tests.filter((t) => ELEMENT_OF[t.verdict] === 'error');
  return (
    markCases(path, { tests: failing, rewrite: retag('error'), counts: { errors: -1, failures: 1 } }) +
    markCases(path, { tests: failing, rewrite: retag('failure') }) +
    markCases(path, { tests: erring, rewrite: retag('failure'), counts: { failures: -1, errors: 1 } }) +
    // A test that ended at its start (the target gone) is skipped to Playwright: inconclusive is no skip.
    markCases(path, { tests: erring, rewrite: retag('skipped'), counts: { skipped: -1, errors: 1 } }) +
    markCases(path, { tests: erring, rewrite: retag('error') })
  );
}

/** Marks each known deviation's testcase in `path` skipped with its reason; returns how many it marked. */
export function markKnownDeviations(path: string, tests: readonly JUnitVerdict[]): number {
  return markCases(path, {
    tests: tests.filter((t) => t.verdict === 'known-deviation'),
    counts: { skipped: 1 },
    rewrite: addElement((t) => {
      const reason = t.reason ?? 'expected to fail';
      const words = reason.startsWith(KNOWN) ? reason : `${KNOWN}: ${reason}`;
      return `<skipped message="${escapeXml(words)}"/>`;
    }),
  });
}

/**
 * A FAIL that passed on its re-check (LEDGER_RECHECK) is "flaky" to Playwright, whose JUnit writes it as passed:
 * it gets its `<failure>`, in the matrix's words, so CI counts the FAIL it is.
 */
export function markRecheckedFailures(path: string, tests: readonly JUnitVerdict[]): number {
  return markCases(path, {
    tests: tests.filter((t) => t.verdict === 'fail' && t.recheck === 'passed'),
    counts: { failures: 1 },
    rewrite: addElement((t) => {
      const words = `${verdictText('fail', t)}${t.reason ? `: ${t.reason}` : ''}`;
      return `<failure message="${escapeXml(words)}" type="FAIL"/>`;
    }),
  });
}

/**
 * The tests of a rule intermittent by the written rule (reporters/intermittent.ts): a property `state` of
 * `intermittent` on the testcase, and a failure's message opening with it. Run after the other markings.
 */
export function markIntermittent(path: string, tests: readonly JUnitVerdict[]): number {
  const property = '<property name="state" value="intermittent">\n</property>';
  return markCases(path, {
    tests: tests.filter((t) => t.intermittent === true),
    rewrite: (inner) => {
      if (inner.includes(property)) return undefined;
      const said = inner.replace(
        /(<failure\b[^>]*?\bmessage=")(?!FAIL \(intermittent\))(?:FAIL: )?/,
        '$1FAIL (intermittent): ',
      );
      return said.includes('<properties>')
        ? said.replace('<properties>', `<properties>\n${property}`)
        : `${said}<properties>\n${property}\n</properties>\n`;
    },
  });
}
