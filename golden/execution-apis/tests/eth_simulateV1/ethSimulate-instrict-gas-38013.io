// Error: Not enough gas provided to pay for intrinsic gas (-38013)
>> {"jsonrpc":"2.0","id":1,"method":"eth_simulateV1","params":[{"blockStateCalls":[{"calls":[{"from":"0xc100000000000000000000000000000000000000","to":"0xc100000000000000000000000000000000000000","gas":"0x0"}]}]},"latest"]}
<< {"jsonrpc":"2.0","id":1,"error":{"code":-38013,"message":"err: intrinsic gas too low: have 0, want 21000 (supplied gas 0)"}}
