// The viewer's look, one stylesheet that the viewer page and the HTML report of `check` and `diff`
// both inline: the call tree, the tables, the header; then what only the report uses (two trees side
// by side, the highlight of what differs). At 600 px and less, call-tree lines wrap and tables stack.
export const STYLE = `
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
table.facts th { color: #667; font-weight: normal; white-space: nowrap; overflow-wrap: normal; }
.mono { overflow-wrap: anywhere; }
.pager a { margin-right: 12px; }
/* the state changes: 32-byte words whole, wrapping where the screen is narrower than one */
table.diff td.word { overflow-wrap: anywhere; }
table.diff td[data-label="account"] { white-space: nowrap; }
table.diff .slot { color: #667; font-size: 11px; }
table.stack td[data-label]::before { display: none; }
/* the HTML report of check and diff */
.summary td, .summary th { padding: 2px 10px 2px 0; }
.headline { font-size: 16px; font-weight: 600; }
section.case { border-top: 2px solid #1d2330; margin-top: 28px; padding-top: 4px; }
section.case h2 { font-size: 17px; margin: 8px 0 2px; }
.sides { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; margin: 8px 0; }
.side { min-width: 0; background: #fff; border: 1px solid #e4e7ec; padding: 6px 8px; overflow-x: auto; }
.side h4 { margin: 0 0 4px; font-size: 13px; color: #667; }
.side summary { white-space: normal; }
.differs { background: #ffe58f; outline: 1px solid #e0a800; }
summary.differs { background: #fff4c2; outline: none; }
.fields { margin-left: 8px; font-size: 11px; padding: 0 4px; }
td.value { white-space: pre-wrap; }
td.field { min-width: 9em; }
table.gas tr.differs td { background: #fff4c2; }
.means { color: #8a5cd0; }
tr.differs { background: none; outline: none; }
tr.differs td.value { background: #fff4c2; }
@media (max-width: 900px) {
  .sides { grid-template-columns: minmax(0, 1fr); }
}
@media (max-width: 600px) {
  #main { padding: 8px 10px 30px; overflow-wrap: anywhere; }
  #search { margin-left: 0; width: 100%; }
  #search input { width: 100%; }
  table { display: block; max-width: 100%; overflow-x: auto; }
  table.stack, table.stack tbody, table.stack tr, table.stack td, table.stack th { display: block; overflow: visible; }
  table.stack tr.head { display: none; }
  table.stack tr { border-bottom: 1px solid #c5cbd6; padding: 4px 0; }
  table.stack td { border: none; padding: 1px 0; overflow-wrap: anywhere; }
  table.stack td[data-label]::before { display: inline; content: attr(data-label) ": "; color: #667; font-family: system-ui, sans-serif; }
  #tree { overflow-x: auto; }
  summary { white-space: normal; }
  .gasbar { width: 40px; }
}
`;
