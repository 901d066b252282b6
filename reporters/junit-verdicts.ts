// The rule matrix's verdicts in Playwright's JUnit file: a known deviation (an expected failure that failed) is
// a pass to Playwright, so its JUnit testcase would count as passed. It is marked skipped with the message
// `known deviation: <reason>` instead — the convention of an expected failure in JUnit (pytest's xfail) — so a
// CI dashboard counts it apart from the passes, in the matrix's words. Idempotent: the report build may run again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { VERDICT_WORDS, type TestVerdict } from './verdicts';

const KNOWN = VERDICT_WORDS['known-deviation'].word;

export interface JUnitVerdict {
  title: string;
  file: string;
  verdict: TestVerdict;
  reason?: string;
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

/** Adds one to the `skipped` count of an opening tag. */
const countSkipped = (tag: string) =>
  tag.replace(/\bskipped="(\d+)"/, (_, n: string) => `skipped="${Number(n) + 1}"`);

/** Marks each known deviation's testcase in `path` skipped with its reason; returns how many it marked. */
export function markKnownDeviations(path: string, tests: readonly JUnitVerdict[]): number {
  if (!existsSync(path)) return 0;
  const deviations = tests.filter((t) => t.verdict === 'known-deviation');
  if (deviations.length === 0) return 0;
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
          const t = deviations.find(
            (d) => d.file === file && (name === d.title || name.endsWith(` › ${d.title}`)),
          );
          if (
            t === undefined ||
            /<(skipped|failure|error)\b/.test((inner ?? '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ''))
          )
            return whole;
          inSuite++;
          const reason = t.reason ?? 'expected to fail';
          const words = reason.startsWith(KNOWN) ? reason : `${KNOWN}: ${reason}`;
          const skipped = `<skipped message="${escapeXml(words)}"/>`;
          return `${head}>\n${skipped}${inner ?? ''}</testcase>`;
        },
      );
      marked += inSuite;
      let opening = open;
      for (let i = 0; i < inSuite; i++) opening = countSkipped(opening);
      return `${opening}${cases}${close}`;
    },
  );
  if (marked === 0) return 0;
  const root = out.replace(/<testsuites\b[^>]*>/, (tag) => {
    let t = tag;
    for (let i = 0; i < marked; i++) t = countSkipped(t);
    return t;
  });
  writeFileSync(path, root);
  return marked;
}
