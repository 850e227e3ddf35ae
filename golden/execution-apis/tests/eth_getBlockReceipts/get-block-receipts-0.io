// gets receipts for block 0
>> {"jsonrpc":"2.0","id":1,"method":"eth_getBlockReceipts","params":["0x0"]}
<< {"jsonrpc":"2.0","id":1,"result":[]}
