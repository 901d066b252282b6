// What the harness's offline HTML pages share (compare.html, last-nights.html): escaping, and one style whose
// verdict colours are the same on every page.

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export const VERDICT_PAGE_STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1b1b; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; text-align: left; overflow-wrap: anywhere; }
thead th { background: #f3f3f3; position: sticky; top: 0; }
tr.group th { background: #e8e8f0; font-size: 1.05em; }
tr.differs td.rule { border-left: 4px solid #c2410c; }
td.rule .title, td .reason { color: #555; font-size: 0.85em; font-weight: normal; max-width: 38em; }
td.v-pass { background: #e7f6e7; }
td.v-fail, td.v-unexpected-pass { background: #fbe3e3; font-weight: bold; }
td.v-harness-defect, td.v-setup { background: #efe3fb; font-weight: bold; }
td.v-known-deviation { background: #fdf3d8; }
td.v-inconclusive { background: #fde9d8; }
td.v-skip, td.v-not-run { background: #f4f4f4; color: #555; }
td.v-absent { background: repeating-linear-gradient(45deg, #fff, #fff 6px, #f0f0f0 6px, #f0f0f0 12px); font-style: italic; }
`;

/** The opening of a page that loads nothing: styles inline, no script, a CSP that forbids the rest. */
export const pageHead = (title: string, style: string): string[] => [
  '<!doctype html>',
  '<html lang="en">',
  '<head>',
  '<meta charset="utf-8">',
  `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
  `<title>${escapeHtml(title)}</title>`,
  `<style>${style}</style>`,
  '</head>',
  '<body>',
];
