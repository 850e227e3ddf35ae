// What comparing two JSON-RPC answers finds, in neutral terms: every difference with its JSON path
// and both values whole, then placed in the answer's shape (the transaction, the frame's path through
// the call tree, the account and slot, the log) and decoded where ABIs allow. `check` and `diff`
// build these; the text, JSON, JUnit, annotation and HTML reports only render them.

/** A key of an object or an index of an array: one step of a path into an answer. */
export type PathStep = string | number;

/** The 32-byte words of two long hex strings that differ (offsets in bytes of the data after `0x`). */
export interface WordChange {
  readonly offset: number;
  /** The word on each side as `0x…` hex (shorter at the end of the data); `missing` past its end. */
  readonly expected: string;
  readonly got: string;
}

/** Function, event or revert reason of a value on each side, when an ABI decodes it. */
export interface DecodedPair {
  readonly expected?: string;
  readonly got?: string;
}

/** One difference between the recorded answer and ours. */
export interface Difference {
  /** JSON path, `$.result[0].result.calls[1].gasUsed`; `$` for the whole body. */
  readonly path: string;
  /** Each side whole, as compact JSON with its escapes and number spellings, or a phrase: `missing`, `no answer`. */
  readonly expected: string;
  readonly got: string;
  /** What the values alone do not say (key order, formatting, lengths). */
  readonly note?: string;
  /** A hex value longer than one word: the words that differ. */
  readonly words?: readonly WordChange[];
  /** With ABIs: what the value (or the frame, log or revert it belongs to) means on each side. */
  readonly decoded?: DecodedPair;
  /** What the value measures, when the comparison knows it (`gas`: reports show it in decimal with its change). */
  readonly quantity?: 'gas';
}

/** A difference and where it is in the answer's shape. */
export interface PlacedDifference extends Difference {
  /** The heading it is grouped under: `tx 1 (0xab12…) › CALL Vault.deposit(amount: 5)`; `response` when the shape is unknown. */
  readonly where: string;
  /** What differs below that heading: `gasUsed`, `storage 0x…01`, `logs[0].data`. */
  readonly field: string;
  /** check, a pretty golden (`NAME.response.json`): the line of the recorded value in that file. */
  readonly line?: number;
}

/** Differences under one heading, in document order of their first one. */
export interface DifferenceGroup {
  readonly where: string;
  readonly differences: readonly PlacedDifference[];
}

/** Groups differences by `where`, the groups in the order their first difference comes. */
export function groupByPlace(differences: readonly PlacedDifference[]): DifferenceGroup[] {
  const groups = new Map<string, PlacedDifference[]>();
  for (const d of differences) {
    const list = groups.get(d.where);
    if (list === undefined) groups.set(d.where, [d]);
    else list.push(d);
  }
  return [...groups].map(([where, list]) => ({ where, differences: list }));
}
