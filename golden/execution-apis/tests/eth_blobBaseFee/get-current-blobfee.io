// gets the current blob fee in wei
>> {"jsonrpc":"2.0","id":1,"method":"eth_blobBaseFee"}
<< {"jsonrpc":"2.0","id":1,"result":"0x1"}
