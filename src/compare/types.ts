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

/**
 * The call of a frame (callTracer) or of a flat trace (trace_*): what the answer says of it, and what
 * an ABI makes of it. Parity's kinds are lower-case (`call`, `delegatecall`, `create`, `reward`).
 */
export interface FrameCall {
  /** `CALL`, `DELEGATECALL`, `CREATE2`…; absent when the answer has none. */
  readonly type?: string;
  /** The callee (a creation's new contract, a reward's author). */
  readonly to?: string;
  /** The contract's name at `to`, from its code, with ABIs. */
  readonly contract?: string;
  /** The first four bytes of the input of a call. */
  readonly selector?: string;
  /** With ABIs: the function called, and the call with its arguments (`deposit(amount: 5)`). */
  readonly function?: string;
  readonly decoded?: string;
}

/**
 * One step of the heading a difference is grouped under, outermost first: the request of a batch,
 * the transaction, the frames of the call tree, the account, the log; `part` names a member of the
 * answer that has nothing more to say of itself (`pre`, `stateDiff`, `result`…).
 */
export type Place =
  | { readonly kind: 'request'; readonly index: number; readonly method?: string }
  /** A transaction by its index in the block (unknown in a receipt without one) and its hash. */
  | { readonly kind: 'tx'; readonly index?: number; readonly hash?: string }
  /** A transaction the request names by its hash (debug_traceTransaction). */
  | { readonly kind: 'txHash'; readonly hash?: string }
  /** A call that is no transaction: debug_traceCall's (no index), one of trace_callMany's. */
  | { readonly kind: 'call'; readonly index?: number; readonly hash?: string }
  /** A frame of a callTracer tree (the top call first). */
  | { readonly kind: 'frame'; readonly call: FrameCall }
  /** A flat trace by its traceAddress (absent: the answer has none). */
  | { readonly kind: 'trace'; readonly traceAddress?: readonly number[]; readonly call: FrameCall }
  | { readonly kind: 'account'; readonly address: string; readonly contract?: string }
  /** A log by its index in the list; of eth_getLogs also its transaction and its index in the block. */
  | { readonly kind: 'log'; readonly index: number; readonly tx?: number; readonly logIndex?: number }
  | { readonly kind: 'part'; readonly name: 'pre' | 'post' | 'stateDiff' | 'rewards' | 'block' | 'result' | 'error' | 'response' };

/** What differs below the heading. */
export interface Field {
  /** The path below the heading (`['logs', 0, 'data']`); empty: the value at the heading itself. */
  readonly steps: readonly PathStep[];
  /** A storage slot (`steps` is `['storage', SLOT]`) a layout names: its variable, `balances[0x…]`. */
  readonly slotName?: string;
  /** The whole answer differs: no answer on a side, or not one JSON value, or only its whitespace. */
  readonly whole?: true;
  /** Only the order of the object's keys differs (the values are each side's keys). */
  readonly keyOrder?: true;
}

/** The request an answer is to: its method, and the block or transaction its first parameter names. */
export interface RequestRef {
  readonly method: string;
  readonly block?: string;
  readonly tx?: string;
}

/** Where a difference is, as data: every reporter renders it, none reads it back from text. */
export interface Location {
  /** The JSON path, in the recording (in ours for what only ours has); empty for the whole body. */
  readonly steps: readonly PathStep[];
  /** The request answered (of a batch, the one the difference is in), when it names a method. */
  readonly request?: RequestRef;
  /** The heading, outermost first. */
  readonly places: readonly Place[];
  readonly field: Field;
}

/** One difference between the recorded answer and ours. */
export interface Difference {
  /** JSON path, `$.result[0].result.calls[1].gasUsed`; `$` for the whole body (made from the location's steps). */
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
  /** What the two sides still share where their values are equal: the keys in another order, a value written differently, only whitespace between tokens. */
  readonly sameValue?: SameValue;
  /** The side with nothing here (`expected` or `got` then reads `missing` or `no answer`): an item or member, or the whole answer. */
  readonly absent?: { readonly side: 'expected' | 'got'; readonly what: 'item' | 'answer' };
}

export type SameValue = 'keyOrder' | 'spelling' | 'whitespace';

/** A difference and where it is in the answer's shape. */
export interface PlacedDifference extends Difference {
  readonly location: Location;
  /** The heading it is grouped under: `tx 1 (0xab12…) › CALL Vault.deposit(amount: 5)`; `response` when the shape is unknown (made from the location). */
  readonly where: string;
  /** What differs below that heading: `gasUsed`, `storage[0x…01]`, `logs[0].data` (made from the location). */
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
