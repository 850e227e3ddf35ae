// A small table of common signatures, so a chain decodes something without --abi: ERC-20, ERC-721,
// ERC-1155, WETH, Multicall3 and the two built-in Solidity errors. Human-readable ABI (viem parseAbi).
import { type Abi, parseAbi } from 'viem';

export const BUILTIN_ABIS: readonly { readonly name: string; readonly abi: Abi }[] = [
  {
    name: 'ERC20',
    abi: parseAbi([
      'function name() view returns (string)',
      'function symbol() view returns (string)',
      'function decimals() view returns (uint8)',
      'function totalSupply() view returns (uint256)',
      'function balanceOf(address owner) view returns (uint256)',
      'function allowance(address owner, address spender) view returns (uint256)',
      'function transfer(address to, uint256 value) returns (bool)',
      'function approve(address spender, uint256 value) returns (bool)',
      'function transferFrom(address from, address to, uint256 value) returns (bool)',
      'function mint(address to, uint256 value)',
      'function burn(uint256 value)',
      'event Transfer(address indexed from, address indexed to, uint256 value)',
      'event Approval(address indexed owner, address indexed spender, uint256 value)',
    ]),
  },
  {
    name: 'ERC721',
    abi: parseAbi([
      'function ownerOf(uint256 tokenId) view returns (address)',
      'function safeTransferFrom(address from, address to, uint256 tokenId)',
      'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
      'function setApprovalForAll(address operator, bool approved)',
      'function getApproved(uint256 tokenId) view returns (address)',
      'function isApprovedForAll(address owner, address operator) view returns (bool)',
      'function tokenURI(uint256 tokenId) view returns (string)',
      'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
      'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
    ]),
  },
  {
    name: 'ERC1155',
    abi: parseAbi([
      'function balanceOfBatch(address[] accounts, uint256[] ids) view returns (uint256[])',
      'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
      'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
      'function uri(uint256 id) view returns (string)',
      'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
      'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
      'event URI(string value, uint256 indexed id)',
    ]),
  },
  {
    name: 'WETH',
    abi: parseAbi([
      'function deposit() payable',
      'function withdraw(uint256 wad)',
      'event Deposit(address indexed dst, uint256 wad)',
      'event Withdrawal(address indexed src, uint256 wad)',
    ]),
  },
  {
    name: 'Multicall3',
    abi: parseAbi([
      'struct Call { address target; bytes callData; }',
      'struct Call3 { address target; bool allowFailure; bytes callData; }',
      'struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }',
      'struct Result { bool success; bytes returnData; }',
      'function aggregate(Call[] calls) payable returns (uint256 blockNumber, bytes[] returnData)',
      'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
      'function aggregate3Value(Call3Value[] calls) payable returns (Result[] returnData)',
      'function tryAggregate(bool requireSuccess, Call[] calls) payable returns (Result[] returnData)',
    ]),
  },
  {
    name: 'Solidity',
    abi: parseAbi(['error Error(string message)', 'error Panic(uint256 code)']),
  },
];
