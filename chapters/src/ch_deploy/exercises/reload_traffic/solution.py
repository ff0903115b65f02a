import math


def reload_traffic(sessions: int, session_gb: float, out_tokens: int, tok_s: float,
                   idle_s: float, full_nodes: int) -> dict:
    decode_s = out_tokens / tok_s
    cycle_s = decode_s + idle_s  # one turn starts per decode plus idle time
    reloads_s = sessions / cycle_s
    gb_s = reloads_s * session_gb
    nodes = math.ceil(full_nodes * decode_s / cycle_s)  # bought whole
    return {"reloads_s": reloads_s, "total_tb_s": gb_s / 1000, "node_gb_s": gb_s / nodes}
