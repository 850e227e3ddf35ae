// The debugger scenario as a Hardhat 2 project (test/helpers/debuggerScenario.ts runs it; README.md):
// the same src/ as the Foundry project, artifacts in hardhat/artifacts. Hardhat downloads its
// compilers, which cannot work offline, so the documented override of TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD
// hands it the solc-js builds from node_modules (solc 0.8.30 and its alias solc-0.8.24).
const { subtask } = require('hardhat/config');
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const SOLCJS = { '0.8.30': 'solc', '0.8.24': 'solc-0.8.24' };

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }) => {
  const pkg = SOLCJS[solcVersion];
  if (pkg === undefined) throw new Error(`no solc-js package for ${solcVersion} (have ${Object.keys(SOLCJS).join(', ')})`);
  // "0.8.30+commit.73712a01.Emscripten.clang" → "0.8.30+commit.73712a01", the longVersion of Hardhat's own list
  const longVersion = require(pkg).version().replace(/\.Emscripten\.clang$/, '');
  return { compilerPath: require.resolve(`${pkg}/soljson.js`), isSolcJs: true, version: solcVersion, longVersion };
});

const settings = {
  optimizer: { enabled: false, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['storageLayout'] } },
};

module.exports = {
  solidity: { compilers: [{ version: '0.8.30', settings }, { version: '0.8.24', settings }] },
  paths: {
    root: __dirname,
    sources: 'src',
    artifacts: 'hardhat/artifacts',
    cache: process.env.DEBUGGER_HARDHAT_CACHE ?? join(tmpdir(), 'blocktrace-debugger-hardhat-cache'),
  },
};
