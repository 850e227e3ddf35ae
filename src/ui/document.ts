// The one HTML document the viewer and the HTML report both are: the viewer's stylesheet, a
// header, the main element and a script, all inline, so the page is one response or one file and
// fetches nothing. `</script` in the script is escaped so that it cannot end its element.
import { STYLE } from './styles.ts';

export interface HtmlDocument {
  /** The <title>, HTML-escaped by the caller. */
  readonly title: string;
  /** More <head> lines (a Content-Security-Policy). */
  readonly head?: string;
  /** The <header>'s and <main>'s markup, and anything before the script. */
  readonly body: string;
  readonly script: string;
}

export function htmlDocument(page: HtmlDocument): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${page.head === undefined ? '' : `${page.head}\n`}<title>${page.title}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
${page.body}
<script>${page.script.replace(/<\/script/gi, '<\\/script')}</script>
</body>
</html>
`;
}
