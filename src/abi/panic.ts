// Solidity's panic codes (the argument of Panic(uint256)), worded as Foundry prints them: alloy-sol-types'
// `impl Display for Panic` and `PanicKind::as_str` (`panic: arithmetic underflow or overflow (0x11)`).
// go-ethereum's revertReason has the meaning alone, in words of its own (accounts/abi/abi.go panicReasons).
const MEANINGS = new Map<bigint, string>([
  [0x00n, 'generic/unspecified error'],
  [0x01n, 'assertion failed'],
  [0x11n, 'arithmetic underflow or overflow'],
  [0x12n, 'division or modulo by zero'],
  [0x21n, 'failed to convert value into enum type'],
  [0x22n, 'storage byte array incorrectly encoded'],
  [0x31n, 'called `.pop()` on an empty array'],
  [0x32n, 'array out-of-bounds access'],
  [0x41n, 'memory allocation error'],
  [0x51n, 'called an invalid internal function'],
]);

/** `panic: division or modulo by zero (0x12)`; `panic: unknown code (0x99)`. */
export function panicText(code: bigint): string {
  const meaning = MEANINGS.get(code);
  // alloy pads a known code to two digits and writes an unknown one as it is
  return `panic: ${meaning ?? 'unknown code'} (0x${meaning === undefined ? code.toString(16) : code.toString(16).padStart(2, '0')})`;
}
