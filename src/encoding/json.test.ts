import { describe, expect, test } from 'bun:test';
import { goJson, INVALID_BYTE_CODE } from './json.ts';

const bad = String.fromCharCode(INVALID_BYTE_CODE);

describe('goJson writes what Go encoding/json writes', () => {
  test('HTML-safe escapes and line separators', () => {
    expect(goJson({ e: 'stack underflow (0 <=> 5) & \u2028\u2029' })).toBe('{"e":"stack underflow (0 \\u003c=\\u003e 5) \\u0026 \\u2028\\u2029"}');
  });
  test('a byte of invalid UTF-8 is \\ufffd; a valid U+FFFD stays raw', () => {
    expect(goJson(`a${bad}${bad}b\ufffd`)).toBe('"a\\ufffd\\ufffdb\ufffd"');
  });
  test('a backslash followed by "udfff" in the text is left alone', () => {
    expect(goJson('x\\udfff')).toBe('"x\\\\udfff"');
    expect(goJson(`x\\${bad}`)).toBe('"x\\\\\\ufffd"');
  });
});
