"""A voice agent on Bedrock AgentCore: the LLM's answer is spoken sentence by sentence as it is written."""
