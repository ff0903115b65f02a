def best_plan(n_routed: int, expert_gb: float, overhead_gb: float, card_gb: float, request_gb: float, concurrent: int, pd_ratio: float):
    """在 [8, 16, 32, 64, 128, 256] 中找一个 EP 规模，使保守解码方案服务 concurrent 个、
    每个 request_gb GB 的请求所用的 GPU 最少：一个单元是 ep 张卡，占 ep / 8 个节点
    （按整节点算）；每 pd_ratio 个解码节点配 1 个预填充节点；每个节点 8 张 GPU。
    GPU 数相同时取较小的规模。返回 {"ep": int, "gpus": int}；没有哪个规模放得下
    一个请求时返回 None。"""
    raise NotImplementedError  # 在这里写你的代码
