// What the HTML report of `check` and `diff` carries inline as JSON, and its script (src/ui/report.ts)
// renders with the viewer's components. Built by src/htmlReport from the comparison engine's placed
// differences; amounts are decimal strings (JSON has no bigint).
import type { Abi } from 'viem';
import type { Frame } from './frame.ts';

/** One difference as a row: where, the field, each side's value (long hex: the words that differ), what each means. */
export interface ReportDifference {
  readonly where: string;
  readonly field: string;
  /** Each side as the answers have it; the page marks the characters that differ. */
  readonly a: string;
  readonly b: string;
  /** A value that measures gas: each side's amount in decimal, shown before the hex with its change. */
  readonly gas?: readonly [string, string];
  readonly aMeans?: string;
  readonly bMeans?: string;
  readonly note?: string;
  /** The JSON path, as --ignore takes it. */
  readonly path: string;
}

/** The same call tree on each side (null where a side has none), and the frames and fields that differ. */
export interface ReportTree {
  readonly title: string;
  readonly sides: readonly [Frame | null, Frame | null];
  /** Frame key (`''` the top call, `0.2` its first call's third) → the fields of that frame that differ. */
  readonly marks: Readonly<Record<string, readonly string[]>>;
}

/** A failing case of check, or a pair of transactions of diff that differs. */
export interface ReportSection {
  readonly id: string;
  readonly title: string;
  /** Lines under the title: the file, the hashes, the gas. */
  readonly lines: readonly string[];
  readonly trees: readonly ReportTree[];
  readonly tables: readonly { readonly title: string; readonly differences: readonly ReportDifference[] }[];
  /** For the index: what differs, in a few words (diff: `call tree (3), state (2), gas +12`; check: `3 changed values, 1 call missing`). */
  readonly kind?: string;
  /** For the index: the gas change (`21,000 → 21,012 (+12)`). */
  readonly gas?: string;
}

/** Transactions only one side has (diff): listed, not drawn. */
export interface OneSided {
  readonly title: string;
  readonly rows: readonly { readonly place: string; readonly hash: string; readonly sender: string; readonly gas: string }[];
}

export interface GasRow {
  readonly label: string;
  readonly a?: string;
  readonly b?: string;
}

export interface ReportData {
  readonly title: string;
  /** The sides' names: `recorded` and `ours` (check), `A` and `B` (diff). */
  readonly sides: readonly [string, string];
  readonly summary: readonly { readonly name: string; readonly value: string }[];
  /** `7 passed, 1 failed`; `11 transaction pairs in 6 blocks: 9 identical, 2 differ; 0 only in A, 0 only in B`. */
  readonly headline: string;
  /** What the index's first column lists: `transaction` (diff, the default), `failing case` (check). */
  readonly indexHeading?: string;
  readonly sections: readonly ReportSection[];
  /** The transactions only A has, then only B (diff, when there are any). */
  readonly oneSided?: readonly OneSided[];
  /** Every pair's gas (diff, when any differs). */
  readonly gas?: readonly GasRow[];
  /** The --abi artifacts' ABIs, to decode calls, events and reverts as the viewer does; the creation code of a contract the trees create with constructor arguments, to decode them. */
  readonly abis: readonly { readonly name: string; readonly abi: Abi; readonly creationCode?: string }[];
  /** Lower-case address → contract name. */
  readonly labels: Readonly<Record<string, string>>;
}
