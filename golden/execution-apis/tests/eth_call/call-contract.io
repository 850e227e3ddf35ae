// performs a basic contract call with default settings
>> {"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"from":"0x0000000000000000000000000000000000000000","input":"0xff01","to":"0x17e7eedce4ac02ef114a7ed9fe6e2f33feba1667"},"latest"]}
<< {"jsonrpc":"2.0","id":1,"result":"0xffee"}
