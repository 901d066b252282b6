// A failure's reason in the rule's words, bounded: what the check expected and what came back, in the harness's
// voice. Playwright's own words — an error's class (`Error:`, `TypeError:`) and a matcher's hint
// (`expect(received).toMatch(expected)`) — are replaced by the check's message (`expect(value, message)`, which
// a matcher error such as toMatch on `undefined` drops from the error but keeps as its step's title) and by its
// Expected/Received lines. A body inside a reason is cut at a boundary: the whole exchange stays in the test's
// evidence attachment, so every view (console, conformance.md, "Changes since", the webhook, compare) stays short.
import { stripVTControlCharacters } from 'node:util';
import type { TestStep } from '@playwright/test/reporter';

/** A reason's longest length: a few hundred characters, whatever it holds. */
export const MAX_REASON = 360;
/** A body's longest length inside a reason: its opening, enough to tell one answer from another. */
export const MAX_BODY = 120;

/** What follows a reason cut short. */
const CUT = ' (cut; whole in the evidence attachment)';

/** An error's class opening a line: `Error: `, `TypeError: `, `DeviationAssertionError: `. */
const ERROR_CLASS = /^(?:[A-Z]\w*)?Error:\s*/;
/** Playwright's matcher hint: `expect(received).toMatch(expected)`, `expect(received).not.toBe(expected)`. */
const MATCHER_HINT = /^(?:[A-Z]\w*)?(?:Error:\s*)?expect\(\w*\)\.[\w.]+\(/;

/** `text` cut before `max` at a space, comma or semicolon (a hard cut when none is near the end). */
function cutAt(text: string, max: number): string {
  const head = text.slice(0, max);
  const at = Math.max(head.lastIndexOf(' '), head.lastIndexOf(','), head.lastIndexOf(';'));
  return (at > max / 2 ? head.slice(0, at) : head).replace(/[\s,;:—-]+$/, '');
}

/** Where the first body longer than MAX_BODY opens in `text` (a JSON object or list), or -1. */
function longBodyAt(text: string): number {
  for (let i = text.search(/[{[]/); i >= 0;) {
    let depth = 0;
    let end = i;
    for (; end < text.length; end++) {
      if (text[end] === '{' || text[end] === '[') depth++;
      else if ((text[end] === '}' || text[end] === ']') && --depth === 0) break;
    }
    if (end - i > MAX_BODY) return i;
    const next = text.slice(end + 1).search(/[{[]/);
    i = next < 0 ? -1 : end + 1 + next;
  }
  return -1;
}

/**
 * `text` on one line and bounded: a body longer than MAX_BODY is cut to its opening (what follows it goes with
 * it), and the whole to `max` (MAX_REASON; Infinity keeps prose whole, as a known deviation's pinned words are),
 * each at a boundary, saying where the rest is.
 */
export function boundReason(text: string, max: number = MAX_REASON): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.endsWith(CUT) && flat.length <= max + CUT.length + 1) return flat; // bounded already
  const body = longBodyAt(flat);
  if (body >= 0) {
    const shown = `${flat.slice(0, body)}${cutAt(flat.slice(body), MAX_BODY)}`;
    return shown.length <= max ? `${shown}…${CUT}` : `${cutAt(shown, max)}…${CUT}`;
  }
  return flat.length <= max ? flat : `${cutAt(flat, max)}…${CUT}`;
}

/** `text` with its bodies cut (boundReason), its prose whole however long. */
export const boundBodies = (text: string): string => boundReason(text, Infinity);

/** The message of the failed check deepest in `steps`, when its author gave one (`expect(value, message)`). */
export function failedCheckMessage(steps: readonly TestStep[]): string | undefined {
  for (const s of steps) {
    const deeper = failedCheckMessage(s.steps);
    if (deeper !== undefined) return deeper;
    if (s.category === 'expect' && s.error !== undefined && !String(s.title).startsWith('Expect "'))
      return s.title;
  }
  return undefined;
}

/** "expected X, got Y" from a matcher's Expected…/Received… lines, when it wrote them. */
function expectedGot(lines: readonly string[]): string | undefined {
  const value = (re: RegExp) =>
    lines.map((l) => re.exec(l)?.[1]?.trim()).find((v): v is string => v !== undefined && v !== '');
  const expected = value(/^Expected(?: [\w ]+)?:\s*(.*)$/);
  const got = value(/^Received(?: [\w ]+)?:\s*(.*)$/);
  const why = value(/^Matcher error:\s*(.*)$/);
  if (expected === undefined && got === undefined) return why;
  const said = [expected && `expected ${expected}`, got && `got ${got}`].filter(Boolean).join(', ');
  return why ? `${said} (${why})` : said;
}

/**
 * A FAIL's reason from its error messages and steps: the check's own words, what it expected and what came back.
 * A message already in the harness's voice ("expected a rejection …, got 404 {…}") is kept, without its class.
 */
export function failureReason(messages: readonly string[], steps: readonly TestStep[]): string | undefined {
  const text = stripVTControlCharacters(messages.find((m) => m.trim() !== '') ?? '');
  const lines = text.split('\n').map((l) => l.trim());
  const first = lines.find((l) => l !== '');
  if (first === undefined) return undefined;
  const hinted = lines.some((l) => MATCHER_HINT.test(l));
  const detail = hinted ? expectedGot(lines) : undefined;
  if (MATCHER_HINT.test(first)) {
    const matcher = /\.(\w+)\(/.exec(first.replace(/\.not\./, '.'))?.[1] ?? 'check';
    const own = failedCheckMessage(steps)?.replace(/:$/, '') ?? `the check (${matcher})`;
    return boundReason(`${own}: ${detail ?? 'it did not hold'}`);
  }
  const said = first.replace(ERROR_CLASS, '');
  return boundReason(detail && !/\bgot\b/.test(said) ? `${said.replace(/:$/, '')}: ${detail}` : said);
}

/**
 * An error's text for the console under its reason: without Playwright's matcher hint and error class, and without
 * its first line when the reason already said it; each line bounded, so a body prints its opening only.
 */
export function errorDetail(message: string, reason?: string): string {
  const lines = stripVTControlCharacters(message)
    .split('\n')
    .filter((l) => !MATCHER_HINT.test(l.trim()))
    .map((l, i) => (i === 0 ? l.replace(ERROR_CLASS, '') : l));
  const opening = reason?.slice(0, 40);
  const first = lines.findIndex((l) => l.trim() !== '');
  if (opening && first >= 0 && lines[first]!.trim().startsWith(opening)) lines.splice(first, 1);
  return lines
    .map((l) => (l.length > MAX_REASON + 100 ? boundReason(l, MAX_REASON + 100) : l))
    .join('\n')
    .replace(/^\n+/, '');
}

/** `text` with each line that is a matcher hint (`TypeError: expect(received).toMatch(expected)`) said as `reason`. */
export function hintsSaidAs(text: string, reason: string): string {
  return text
    .split('\n')
    .map((l) => (MATCHER_HINT.test(l.trim()) ? `${/^\s*/.exec(l)![0]}${reason}` : l))
    .join('\n');
}
