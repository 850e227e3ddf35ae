// The viewer's look, one stylesheet that the viewer page and the HTML report of `check` and `diff`
// both inline: the call tree, the tables, the header; then what only the report uses (two trees side
// by side, the highlight of what differs); the Debug view's panes. At 900 px and less the Debug view's
// panes stack; at 600 px and less, call-tree lines wrap and tables stack.
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
/* the table of differences: the place as wide as it reads up to a limit (wrapping past it, whole in its title), the field, then the two values one above the other with the rest of the width */
table.differences { width: 100%; }
table.differences .where { display: block; min-width: 8em; max-width: 16em; overflow-wrap: anywhere; }
table.differences td.field { min-width: 7em; max-width: 14em; }
table.differences .note { color: #667; font-family: system-ui, sans-serif; font-size: 11px; }
.pair { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 10px; }
.pair .side-name { color: #667; font-family: system-ui, sans-serif; font-size: 11px; line-height: 18px; }
/* the characters that differ inside a value, as jest-diff marks them: the first side's, the second's */
td.value del { background: #ffc9c5; outline: 1px solid #e5827c; color: inherit; text-decoration: none; }
td.value ins { background: #b6efc2; outline: 1px solid #5cb874; color: inherit; text-decoration: none; }
td.value .cut { color: #667; font-family: system-ui, sans-serif; font-size: 11px; }
td.value .amount { font-weight: 600; }
td.value .hex { color: #667; }
table.gas tr.differs td { background: #fff4c2; }
.means { color: #8a5cd0; }
tr.differs { background: none; outline: none; }
tr.differs td.value { background: #fff4c2; }
/* the Debug view: source, call stack, step facts, stack, memory, storage, the list of steps */
.debug-links a { margin-right: 4px; }
.dbg-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 14px; }
.dbg-head h2 { margin: 4px 0; }
.dbg-head .k, .dbg-facts .k, .pane .none, .dbg-code .file { color: #667; font-family: system-ui, sans-serif; font-size: 12px; }
.dbg-unmapped { color: #9a6700; margin: 4px 0; }
.dbg-bar { display: flex; flex-wrap: wrap; gap: 4px; margin: 8px 0 6px; }
.dbg-bar button { font: 12px system-ui, sans-serif; padding: 3px 8px; border: 1px solid #c5cbd6; border-radius: 4px; background: #fff; color: #1d2330; cursor: pointer; }
.dbg-bar button:hover { background: #eef2fb; }
.dbg-bar button:disabled { color: #aab; cursor: default; background: #fff; }
.dbg-bar kbd { font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; color: #667; margin-left: 5px; }
.dbg-facts { display: flex; flex-wrap: wrap; gap: 2px 16px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; padding: 4px 0; border-bottom: 1px solid #e4e7ec; }
.dbg-facts .says { flex-basis: 100%; color: #8a5cd0; overflow-wrap: anywhere; }
#dbg-message { min-height: 1.45em; margin: 2px 0; color: #9a6700; }
.dbg-grid { display: grid; grid-template-columns: minmax(0, 11fr) minmax(0, 9fr); gap: 0 20px; }
.dbg-main, .dbg-side { min-width: 0; }
.pane h3 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; color: #667; margin: 8px 0 4px; }
.dbg-code { position: relative; height: clamp(240px, 45vh, 640px); overflow: auto; background: #fff; border: 1px solid #e4e7ec; line-height: 18px; tab-size: 4; }
.dbg-code .file { position: sticky; top: 0; left: 0; z-index: 1; padding: 2px 8px; background: #fff; border-bottom: 1px solid #e4e7ec; }
.dbg-code .lines { width: max-content; min-width: 100%; }
.dbg-code .line, .dbg-code .op { white-space: pre; padding-right: 12px; }
.dbg-code .line { cursor: pointer; }
.dbg-code .line:hover { background: #eef2fb; }
.dbg-code .num { display: inline-block; position: sticky; left: 0; min-width: 3.5em; padding-right: 10px; text-align: right; color: #99a; background: #fff; user-select: none; }
.dbg-code .in-range { background: #f4f6fd; }
.dbg-code .current, .dbg-code .current .num { background: #fff4c2; }
.dbg-code .current .num { color: #1d2330; font-weight: 600; }
.dbg-code mark { background: #ffe58f; outline: 1px solid #e0a800; color: inherit; }
.dbg-code mark.wide { background: #fff0b3; outline: none; }
.dbg-code .nosource { margin: 6px 8px; color: #9a6700; white-space: normal; font-family: system-ui, sans-serif; }
.dbg-code ol.opcodes { list-style: none; margin: 0; padding: 0; }
.dbg-steps { position: relative; height: 240px; overflow-y: auto; overflow-x: hidden; background: #fff; border: 1px solid #e4e7ec; font-size: 12px; }
.dbg-steps .window { position: absolute; left: 0; right: 0; }
.dbg-steps .row { height: 20px; line-height: 20px; display: grid; grid-template-columns: 7ch 5ch 14ch minmax(0, 1fr); gap: 10px; padding: 0 8px; cursor: pointer; white-space: nowrap; }
.dbg-steps .row span { overflow: hidden; text-overflow: ellipsis; }
.dbg-steps .row .n { text-align: right; color: #667; }
.dbg-steps .row .pc { text-align: right; }
.dbg-steps .row:hover { background: #eef2fb; }
.dbg-steps .row.current { background: #fff4c2; }
.dbg-list { margin: 0; padding: 0; list-style: none; }
.dbg-list li { padding: 2px 0; border-bottom: 1px solid #f0f2f5; overflow-wrap: anywhere; }
#dbg-frames li { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
#dbg-frames .label { color: #0b6b8a; font-weight: 600; }
#dbg-frames .returns { color: #16803c; }
#dbg-locals { color: #667; font-size: 12px; margin-top: 4px; overflow-wrap: anywhere; }
#dbg-frames .note { color: #667; font-family: system-ui, sans-serif; font-size: 12px; }
#dbg-frames li:last-child { background: #fff4c2; }
#dbg-stack .i { display: inline-block; min-width: 2.5em; color: #99a; }
#dbg-storage .slot { color: #667; }
#dbg-storage .change { overflow-wrap: anywhere; }
#dbg-storage .after { color: #16803c; }
.dbg-mem { max-height: 320px; overflow-y: auto; font-size: 12px; }
.dbg-mem .word { display: grid; grid-template-columns: 6ch minmax(0, 1fr) 1ch; gap: 8px; padding: 0 4px; }
.dbg-mem .word .off { color: #99a; }
.dbg-mem .word .hex { overflow-wrap: anywhere; }
.dbg-mem .word.r { background: #e8f3fb; }
.dbg-mem .word.w { background: #fff4c2; }
.dbg-mem mark.r { background: #b9dcf2; color: inherit; }
.dbg-mem mark.w { background: #ffe58f; color: inherit; }
@media (max-width: 900px) {
  .sides { grid-template-columns: minmax(0, 1fr); }
  /* one column: the source, the call stack, the steps, then the values */
  .dbg-grid { display: flex; flex-direction: column; }
  .dbg-main, .dbg-side { display: contents; }
  #dbg-frames-pane { order: 1; }
  #dbg-steps-pane { order: 2; }
  #dbg-storage-pane, #dbg-stack-pane, #dbg-memory-pane { order: 3; }
  .dbg-code { height: 340px; }
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
  table.differences td.field { max-width: none; }
  table.differences .where { display: inline; max-width: none; }
  table.stack td[data-label]::before { display: inline; content: attr(data-label) ": "; color: #667; font-family: system-ui, sans-serif; }
  #tree { overflow-x: auto; }
  summary { white-space: normal; }
  .gasbar { width: 40px; }
}
`;
