def decode_plan(free_gb_per_card: float, cards: int, request_gb: float, nodes_per_unit: int, concurrent: int, pd_ratio: float, conservative: int):
    """每个单元 cards 张卡、占 nodes_per_unit 个节点，每张卡有 free_gb_per_card GB
    可放 KV；concurrent 个请求，每个 request_gb GB；每 pd_ratio 个解码节点配 1 个
    预填充节点；每个节点 8 张 GPU。conservative == 0 时四舍五入（原文的算法）；
    conservative == 1 时并发数向下取整，单元数和预填充节点数向上取整。
    返回一个值都是 int 的 dict，键为 concurrency、units、d_nodes、p_nodes、
    total_nodes、gpus；一个单元连一个请求都放不下时返回 None。"""
    raise NotImplementedError  # 在这里写你的代码
