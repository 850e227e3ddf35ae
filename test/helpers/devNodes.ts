// Development nodes as users run them, each on 127.0.0.1 and a free port, stopped by its PID: the
// pinned anvil with its defaults but mining only on evm_mine (so one block can hold several
// transactions), and a Hardhat 2 node with its defaults (test/helpers/forkNodes.ts starts both).
import { type ForkNode, startAnvilNode, startHardhatNode } from './forkNodes.ts';

export type DevNode = ForkNode;

export const startDevAnvil = (timeoutMs = 30_000): Promise<DevNode> => startAnvilNode(['--no-mining'], undefined, timeoutMs);

export const startHardhat = (timeoutMs = 60_000): Promise<DevNode> => startHardhatNode(undefined, timeoutMs);
