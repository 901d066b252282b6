// The rule matrix's verdicts in Playwright's JUnit file: a known deviation (an expected failure that failed) is
// a pass to Playwright, so its JUnit testcase would count as passed. It is marked skipped with the message
// `known deviation: <reason>` instead — the convention of an expected failure in JUnit (pytest's xfail) — so a
// CI dashboard counts it apart from the passes, in the matrix's words; a FAIL that passed on re-check gets the
// `<failure>` Playwright's retry took from it. Idempotent: the report build may run again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { VERDICT_WORDS, type TestVerdict } from './verdicts';
import { verdictText } from './verdict-words';

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

/** Adds one to the `count` attribute (skipped, failures) of an opening tag. */
const countOne = (tag: string, count: string) =>
  tag.replace(new RegExp(`\\b${count}="(\\d+)"`), (_, n: string) => `${count}="${Number(n) + 1}"`);

interface Marking {
  /** The tests whose testcase is rewritten. */
  tests: readonly JUnitVerdict[];
  /** The testcase's new inner XML, or undefined to leave it as it is. */
  rewrite: (inner: string, t: JUnitVerdict) => string | undefined;
  /** The attribute of its suite and of the root that counts a rewritten case, if any. */
  count?: 'skipped' | 'failures';
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
      let opening = open;
      for (let i = 0; i < inSuite && m.count; i++) opening = countOne(opening, m.count);
      return `${opening}${cases}${close}`;
    },
  );
  if (marked === 0) return 0;
  const root = out.replace(/<testsuites\b[^>]*>/, (tag) => {
    let t = tag;
    for (let i = 0; i < marked && m.count; i++) t = countOne(t, m.count);
    return t;
  });
  writeFileSync(path, root);
  return marked;
}

/** Marks each known deviation's testcase in `path` skipped with its reason; returns how many it marked. */
export function markKnownDeviations(path: string, tests: readonly JUnitVerdict[]): number {
  return markCases(path, {
    tests: tests.filter((t) => t.verdict === 'known-deviation'),
    count: 'skipped',
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
    count: 'failures',
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
        /(<failure\b[^>]*?\bmessage=")(?!FAIL \(intermittent\))/,
        '$1FAIL (intermittent): ',
      );
      return said.includes('<properties>')
        ? said.replace('<properties>', `<properties>\n${property}`)
        : `${said}<properties>\n${property}\n</properties>\n`;
    },
  });
}
