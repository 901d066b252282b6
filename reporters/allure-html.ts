// The report works offline and calls no third party: Allure's awesome plugin hard-codes a Google Analytics
// gtag loader and its inline configuration into every index.html (no option turns it off), so the build
// removes them, then refuses any page that still references an external script, style, frame or image.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The loader `<script async src="https://www.googletagmanager.com/…">` and the inline block calling gtag(). */
const GTAG_LOADER =
  /<script\b[^>]*\bsrc="https?:\/\/www\.googletagmanager\.com\/[^"]*"[^>]*>\s*<\/script>\s*/g;
const GTAG_INLINE = /<script>(?:(?!<\/script>)[\s\S])*?\bgtag\((?:(?!<\/script>)[\s\S])*<\/script>\s*/g;

export function stripThirdParty(html: string): string {
  return html.replace(GTAG_LOADER, '').replace(GTAG_INLINE, '');
}

/** src/href attributes and CSS url()s pointing off the page (http, https, protocol-relative). */
const EXTERNAL_REF =
  /\b(?:src|href)\s*=\s*["']?((?:https?:)?\/\/[^"'\s>]+)|url\(\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi;

/** The external references left in an HTML page (for a data: URI, only its own markup is looked at). */
export function externalReferences(html: string): string[] {
  // Inline data: URIs (the single-file report embeds its script and styles) hold no markup of the page.
  const markup = html.replace(/data:[a-z]+\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+/gi, 'data:');
  return [...markup.matchAll(EXTERNAL_REF)].map((m) => m[1] ?? m[2] ?? '');
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

/** Strips every .html under `dir` (or the one file); returns the external references still left, per file. */
export function makeOffline(path: string): { file: string; refs: string[] }[] {
  const files = statSync(path).isDirectory() ? htmlFiles(path) : [path];
  const left: { file: string; refs: string[] }[] = [];
  for (const file of files) {
    // latin1, one char per byte: the patterns are ASCII, the bytes round-trip unchanged, and decoding the
    // single-file report (megabytes with a long history) as UTF-8 and encoding it back is wasted work.
    const html = stripThirdParty(readFileSync(file, 'latin1'));
    writeFileSync(file, html, 'latin1');
    const refs = externalReferences(html);
    if (refs.length > 0) left.push({ file, refs });
  }
  return left;
}
