// The HTML report of `check` and `diff`: one self-contained page (the viewer's stylesheet, the report's
// script and its data inline; a Content-Security-Policy that lets nothing be fetched) that a CI job
// uploads as an artifact and anyone opens from file://. The data comes from the comparison engine's
// placed differences; src/ui/report.ts renders it with the viewer's components.
import reportBundle from '../ui/report.bundle.txt' with { type: 'text' };
import { AbiDecoder } from '../abi/decoder.ts';
import type { Artifact } from '../abi/types.ts';
import { gasAmounts } from '../compare/gas.ts';
import type { PlacedDifference } from '../compare/types.ts';
import type { Frame } from '../ui/frame.ts';
import type { ReportData, ReportDifference } from '../ui/reportData.ts';
import { htmlDocument } from '../ui/document.ts';

/** A value longer than this that the other side lacks altogether (a whole frame) is cut in a table cell; a pair of values goes whole, for the page to mark where they differ. */
const CELL_UP_TO = 1200;

const clip = (value: string, other: string): string =>
  value.length <= CELL_UP_TO || (other !== 'missing' && other !== 'no answer') ? value : `${value.slice(0, CELL_UP_TO)}… (${value.length.toLocaleString('en')} characters)`;

/** One difference as a table row: long hex as the 32-byte words that differ, as the text report shows it; gas also in decimal. */
export function reportDifference(d: PlacedDifference): ReportDifference {
  const words = (side: 'expected' | 'got'): string | undefined => d.words?.map((w) => `@${w.offset} ${w[side]}`).join('\n');
  const gas = gasAmounts(d);
  return {
    where: d.where,
    field: d.field,
    a: words('expected') ?? clip(d.expected, d.got),
    b: words('got') ?? clip(d.got, d.expected),
    ...(gas === undefined ? {} : { gas: [String(gas[0]), String(gas[1])] as const }),
    ...(d.decoded?.expected === undefined ? {} : { aMeans: d.decoded.expected }),
    ...(d.decoded?.got === undefined ? {} : { bMeans: d.decoded.got }),
    ...(d.note === undefined ? {} : { note: d.note }),
    path: d.path,
  };
}

/** The ABIs the page decodes with, and the creation code of each contract whose constructor takes arguments (runtime code, which only named contracts, stays out). */
export const reportAbis = (artifacts: readonly Artifact[]): ReportData['abis'] =>
  artifacts.map((a) => ({ name: a.name, abi: a.abi, ...(a.creationCode !== undefined && a.abi.some((item) => item.type === 'constructor' && item.inputs.length > 0) ? { creationCode: a.creationCode } : {}) }));

/** The creations' init codes in `frame`'s tree. */
function initCodes(frame: Frame | null, out: string[]): string[] {
  if (frame === null) return out;
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') out.push(frame.input);
  for (const call of frame.calls ?? []) initCodes(call, out);
  return out;
}

/** `data` with only the creation codes its trees create (a project's whole out/ would weigh megabytes). */
function creationsUsed(data: ReportData): ReportData {
  const decoder = new AbiDecoder(data.abis.filter((a) => a.creationCode !== undefined), false);
  const used = new Set<string>();
  const inits = data.sections.flatMap((s) => s.trees.flatMap((t) => t.sides.flatMap((side) => initCodes(side, []))));
  for (const init of inits) {
    const name = decoder.creation(init)?.name;
    if (name !== undefined) used.add(name);
  }
  return { ...data, abis: data.abis.map(({ creationCode, ...rest }) => (creationCode !== undefined && used.has(rest.name) ? { ...rest, creationCode } : rest)) };
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page. `<` in the data is escaped so that it cannot end its element (ui/document.ts escapes the script's). */
export function htmlReport(data: ReportData): string {
  const json = JSON.stringify(creationsUsed(data)).replace(/</g, '\\u003c');
  return htmlDocument({
    title: escapeHtml(data.title),
    head: `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    body: `<header><a href="#headline">blocktrace</a><span>${escapeHtml(data.title)}</span></header>
<main id="main"><p class="loading">${escapeHtml(data.headline)}</p></main>
<script type="application/json" id="data">${json}</script>`,
    script: reportBundle,
  });
}
