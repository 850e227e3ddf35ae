// When a message's success depends on its gas limit only through a threshold, and what that
// threshold is, from one run (eth_estimateGas: rpc/handlers/estimate.ts).
//
// A message that calls a contract whose code contains none of SEES_GAS runs the same opcodes, each
// charged the same, whatever gas it is given, as long as it is given enough: it fails exactly where
// the gas left is below an opcode's cost or, at an SSTORE, at or below the EIP-2200 sentry
// (core/vm/operations_acl.go, ethereumjs opcodes/EIP2200.ts). So the least gas with which it
// succeeds is the larger of its whole gas and, for each SSTORE, the gas spent before it plus the
// sentry plus one. That holds when it pays no fee (the funds check would depend on the gas),
// carries no blobs or authorizations, and the fork's gas rules are those (Istanbul on, none of
// EIP-6800, 7864, 7928, 8037, 8038).
import type { Common } from '@ethereumjs/common';
import { activePrecompiles } from './accessList.ts';
import type { CallWatch } from './callExec.ts';
import type { CallRequest } from './message.ts';

const SSTORE = 0x55;
/**
 * Opcodes through which a message sees the gas it has: GAS, and the calls and creations, which pass
 * on a share of it (EIP-150) and run other code. SELFDESTRUCT is counted in too (EIP-7928 looks at
 * the gas left there).
 */
const SEES_GAS = new Set([0x5a, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa, 0xff]);

/** Whether `code` contains none of SEES_GAS as an opcode (push data skipped), reachable or not. */
export function blindToGas(code: Uint8Array): boolean {
  if (code[0] === 0xef) return false; // EIP-7702 delegation, EOF
  for (let i = 0; i < code.length; i++) {
    const op = code[i]!;
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
    else if (SEES_GAS.has(op)) return false;
  }
  return true;
}

/**
 * Whether `request`, calling `code` (after state overrides; no precompile moved), succeeds or fails
 * by a threshold of gas alone (above).
 */
export function thresholdApplies(common: Common, request: CallRequest, code: Uint8Array): boolean {
  if (request.to === undefined || request.gasPrice !== 0n || (request.feeCap ?? 0n) !== 0n) return false;
  if ((request.blobHashes?.length ?? 0) > 0 || (request.authorizations?.length ?? 0) > 0) return false;
  if (!common.gteHardfork('istanbul') || [6800, 7864, 7928, 8037, 8038].some((eip) => common.isActivatedEIP(eip))) return false;
  if (activePrecompiles(common).includes(Buffer.from(request.to).toString('hex'))) return false;
  return code.length > 0 && blindToGas(code);
}

/**
 * The threshold of one run with `limit` gas: pass `watch` to the run, then `least` with the run's
 * intrinsic and execution gas gives the least gas with which the message succeeds.
 */
export class GasThreshold {
  private sentryNeed = 0n;
  readonly watch: CallWatch;

  constructor(common: Common, limit: bigint) {
    const sentry = common.param('sstoreSentryEIP2200Gas');
    this.watch = {
      opcodes: [SSTORE],
      reached: (step) => {
        const need = limit - step.gasLeft + sentry + 1n;
        if (need > this.sentryNeed) this.sentryNeed = need;
      },
    };
  }

  least(intrinsic: bigint, executionGas: bigint): bigint {
    const whole = intrinsic + executionGas;
    return whole > this.sentryNeed ? whole : this.sentryNeed;
  }
}
