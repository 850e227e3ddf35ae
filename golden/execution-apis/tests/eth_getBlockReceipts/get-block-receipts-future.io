// gets receipts of future block
>> {"jsonrpc":"2.0","id":1,"method":"eth_getBlockReceipts","params":["0x37"]}
<< {"jsonrpc":"2.0","id":1,"result":null}
