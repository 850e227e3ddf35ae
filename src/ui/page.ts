// The viewer's one HTML page: styles and the bundled script inline, so GET / is one response and
// nothing is fetched from elsewhere (the machine may be offline). The script is imported as text:
// Bun, the esbuild bundle and the compiled binary carry it inside.
import bundle from './client.bundle.txt' with { type: 'text' };

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #fafbfc; }
header { background: #1d2330; color: #fff; padding: 10px 20px; display: flex; gap: 16px; align-items: baseline; }
header a { color: #fff; text-decoration: none; font-weight: 600; }
header span { color: #aab; font-size: 12px; }
#main { padding: 12px 20px 40px; }
.mono, .frame, .event, .result { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 3px 10px; border-bottom: 1px solid #e4e7ec; }
tr.failed td.status, .status.failed, .failed { color: #c0262d; }
.status.ok, tr.ok td.status { color: #16803c; }
details { margin-left: 18px; }
#tree > details { margin-left: 0; }
summary { cursor: pointer; white-space: nowrap; }
summary.failed .callee { color: #c0262d; }
.gasbar { display: inline-block; width: 80px; height: 8px; background: #e4e7ec; margin-right: 6px; vertical-align: middle; }
.gasbar span { display: block; height: 8px; background: #5b7bd5; }
.gas { display: inline-block; min-width: 64px; color: #667; }
.kind { color: #8a5cd0; margin-right: 6px; font-size: 11px; }
.callee { color: #0b6b8a; font-weight: 600; }
.children { border-left: 1px dotted #c5cbd6; margin-left: 6px; padding-left: 6px; }
.event { color: #9a6700; margin-left: 18px; }
.result { color: #16803c; margin-left: 18px; }
.result.failed { color: #c0262d; font-weight: 600; }
header { flex-wrap: wrap; }
#search { margin-left: auto; }
#search input { font: inherit; padding: 2px 6px; width: 22em; max-width: 100%; box-sizing: border-box; }
table.facts th { color: #667; font-weight: normal; }
.mono { overflow-wrap: anywhere; }
.pager a { margin-right: 12px; }
@media (max-width: 600px) {
  #main { padding: 8px 10px 30px; }
  #search { margin-left: 0; width: 100%; }
  #search input { width: 100%; }
  table { display: block; max-width: 100%; overflow-x: auto; }
  #tree { overflow-x: auto; }
  summary { white-space: normal; }
  .gasbar { width: 40px; }
}
`;

export function viewerPage(): string {
  const script = bundle.replace(/<\/script/gi, '<\\/script');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>blocktrace</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header><a href="#/">blocktrace</a><span id="chain"></span><form id="search"><input name="q" placeholder="block, hash or address" aria-label="search" spellcheck="false"></form></header>
<main id="main"><p class="loading">loading…</p></main>
<script>${script}</script>
</body>
</html>
`;
}
