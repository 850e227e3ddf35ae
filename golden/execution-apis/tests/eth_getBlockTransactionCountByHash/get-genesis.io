// gets tx count in block 0
>> {"jsonrpc":"2.0","id":1,"method":"eth_getBlockTransactionCountByHash","params":["0x44fd89d504659cd58f48f4796b77a7e7012cf296a2409afa2f6c3cb99b5b3d99"]}
<< {"jsonrpc":"2.0","id":1,"result":"0x0"}
