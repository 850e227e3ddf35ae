// The debugger's moves and the key of each: one table, so a key does the same in the terminal UI
// and in the viewer (navigate.ts does the moves; no import here, the viewer's bundle takes it whole).

/** The moves, each to a step from another (navigate.ts). */
export const MOVES = [
  'first', 'previous', 'next', 'previousLine', 'nextLine', 'stepOver', 'stepOut',
  'previousCall', 'nextCall', 'nextWrite', 'nextEvent', 'revert', 'last',
] as const;
export type Move = (typeof MOVES)[number];

/** Each move's key: Foundry's debugger's where it has one (j/k, g/G; its c/C go the other way). */
export const MOVE_KEYS: Readonly<Record<Move, string>> = {
  first: 'g', previous: 'k', next: 'j', previousLine: 'p', nextLine: 'n', stepOver: 'o', stepOut: 'u',
  previousCall: 'C', nextCall: 'c', nextWrite: 'w', nextEvent: 'e', revert: 'r', last: 'G',
};
