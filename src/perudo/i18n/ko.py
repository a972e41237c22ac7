"""Korean messages (한국어). The games' words follow the Korean rule text: 두도, 칼자, 팔라피코,
조커 (aces). Keys and placeholders match :mod:`perudo.i18n.en`."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, str | list[str]]] = {
    # 입력할 수 있는 말 (모든 언어의 말을 어디서나 받습니다).
    "input.dudo": ["두도", "도전"],
    "input.calza": ["칼자"],
    "input.palifico": ["팔라피코"],
    "input.normal": ["일반", "보통"],
    "input.pass": ["패스"],
    "input.aside": ["내려놓기", "보여주기"],
    "input.aces": ["조커", "에이스"],
    "input.help": ["도움말", "도움"],
    "input.quit": ["종료", "그만"],
    "input.skip": ["아니", "아니요", "건너뛰기"],
    # 게임의 말.
    "word.dudo": "두도",
    "word.calza": "칼자",
    "word.palifico": "팔라피코",
    "word.aces": "조커",
    # 자리.
    "seat.you": "나",
    "seat.you_mark": "(나)",
    "seat.bot": "봇 {n}",
    "seat.generic": "{n}번 자리",
    # 입찰과 행동.
    "bid.face": "{q} × {f}",
    "bid.aces": "조커 {q}개",
    "act.dudo": "{dudo}!",
    "act.calza": "{calza}!",
    "act.pass": "패스",
    "act.aside": "내려놓기: {dice}",
    "act.choose_palifico": "{palifico} 라운드",
    "act.choose_normal": "일반 라운드",
    # 시작과 라운드.
    "rolloff.throw": "선 정하기 (P-2): {dice}",
    "rolloff.opens": "가장 높은 눈: {who} — 첫 라운드를 시작합니다.",
    "start.from_record": "기록된 게임을 {round}라운드부터 이어갑니다.",
    "round.header": "{round}라운드 · 주사위 {total}개",
    "round.header_memory": "{round}라운드 · 주사위 {total}개 · 기억 모드 (P-40)",
    "round.opens": "시작: {who}",
    "palifico.announce": (
        "팔라피코 라운드! {who}의 주사위가 하나 남았습니다: 조커는 와일드가 아니고, "
        "첫 입찰의 눈이 고정됩니다 (P-30, P-31, P-32)."
    ),
    "palifico.open": (
        "팔라피코: 시작하는 사람({who})은 조커를 포함해 어떤 눈으로도 입찰할 수 있습니다 (P-32)."
    ),
    "palifico.locked": (
        "팔라피코: 눈 {face} 고정 — 주사위가 하나 남은 사람만 바꿀 수 있습니다 (P-32, P-33)."
    ),
    "palifico.choose": (
        "주사위 하나로, 두 명이 남은 판에서 선을 잡았습니다: 팔라피코 라운드(조커 와일드 아님, "
        "눈 고정)나 일반 라운드를 고르세요. 어느 쪽이든 팔라피코를 쓴 것으로 칩니다 (P-34)."
    ),
    "palifico.chosen": "{who}: {palifico} 라운드 (P-34).",
    "palifico.declined": "{who}: 일반 라운드. 그래도 {palifico}는 사용한 것으로 칩니다 (P-34).",
    # 테이블.
    "table.out": "탈락",
    "table.shown": "공개: {dice}",
    "table.to_act": "차례",
    "hand.title": "내 주사위:",
    "hand.wild": "{mark} = {aces}: 와일드, 어떤 눈으로도 셉니다 (P-15)",
    "hand.not_wild": "팔라피코: 이번 라운드에 {aces}는 와일드가 아닙니다 (P-31)",
    "hand.shown": "↑ 공개해 둔 주사위: {dice} (V-9)",
    "hand.rerolled": "다시 굴린 내 주사위:",
    "bids.title": "입찰:",
    "bids.none": "아직 없음",
    "bid.opening": "아직 입찰 없음 — 시작: {who}",
    "bid.current_label": "현재 입찰:",
    "bid.by": "({who})",
    "hint.bid": (
        "참일 확률: {pct} · 내가 보는 해당 주사위: {mine}개 · 보이지 않는 주사위: {unseen}개 · "
        "전체 기대값: {expected}개"
    ),
    "hint.calza": "정확히 맞을 확률: {pct}",
    "may.title": "가능한 행동:",
    "may.bid": "입찰 {bids} 이상",
    "may.wild": "{aces} {bid} 이상",
    "may.no_raise": "더 높은 입찰 없음 (P-16)",
    "may.pass": "패스 (V-10)",
    "may.aside": "내려놓기 + 보여줄 주사위, 예: 내려놓기 55 (V-9)",
    "may.normal": "일반",
    # 묻기.
    "turn.rule": "{who}의 차례",
    "turn.must_raise": "주사위를 내려놓고 다시 굴렸습니다: 이제 입찰을 올리세요 (V-9).",
    "prompt.turn": "내 차례> ",
    "prompt.calza": "{bid}에 {calza}? ({calza} / Enter: 계속)> ",
    "calza.dice": "내 주사위: {dice}.",
    "err.unknown": (
        "알 수 없는 입력: “{text}”. 3x5나 3 5 같은 입찰, “3 {aces}”, {dudo}, 도움말 중에서 "
        "입력하세요."
    ),
    "err.aside": "“{text}”: 내려놓을 눈을 적으세요. 예: 내려놓기 55 (V-9).",
    "err.illegal": "허용되지 않음: {reason}",
    "err.empty": "3x5 같은 입찰이나 {dudo}, 도움말을 입력하세요.",
    "help.text": (
        "하는 법:\n"
        "  3x5 또는 3 5    입찰: 테이블 전체에 5가 적어도 세 개 ({aces}는 어떤 눈으로도 셈)\n"
        "  3 {aces}          {aces} 입찰 (3x1과 같음)\n"
        "  {dudo}            마지막 입찰에 도전: 세어서 진 쪽이 주사위 하나를 잃음\n"
        "  {calza}            마지막 입찰이 정확히 맞다 (칼자가 있는 규칙에서)\n"
        "  {palifico}, 일반   두 명일 때의 선택 (P-34)\n"
        "  패스, 내려놓기 55  규칙에 있을 때 (V-10, V-9)\n"
        "  도움말, 종료"
    ),
    # 도전.
    "reveal.title": "{bid} 확인 (입찰: {who} · {call}: {caller})",
    "reveal.pass": "{who}의 패스 확인 (두도: {caller}): 주사위를 공개합니다 (V-10).",
    "reveal.count": "해당 {n}개 · 누적 {running}",
    "reveal.distinct": "서로 다른 눈 {n}개",
    "reveal.hidden": "끝까지 공개하지 않음 (P-21): {who}",
    "verdict.dudo_holds": "{count}개: 입찰 {bid} 성립.",
    "verdict.dudo_fails": "{count}개뿐: 입찰 {bid} 실패.",
    "verdict.calza_exact": "정확히 {count}개: 칼자 성공!",
    "verdict.calza_wrong": "{count}개 — 정확히 {bid}가 아님: 칼자 실패.",
    "verdict.pass_true": "모두 다른 눈: 패스는 참.",
    "verdict.pass_false": "같은 눈이 있음: 패스는 거짓.",
    "change.lose": "{who}: 주사위 −1",
    "change.lose_n": "{who}: 주사위 −{n}",
    "change.gain": "{who}: 주사위 +1",
    "change.capped": "{who}: 이미 {max}개라 더 얻지 못함 (P-51)",
    "change.left": "({n}개 남음)",
    "elim.other": "{who} 탈락 (P-23).",
    "elim.you": "탈락했습니다 (P-23). 봇들이 끝까지 계속합니다.",
    "next_opener": "다음 라운드 시작: {who}",
    # 끝.
    "over.winner": "승자: {who}!",
    "over.you_win": "승리했습니다!",
    "bye": "안녕히 가세요!",
    "save.prompt": "게임 기록을 저장할까요? 파일 이름 (건너뛰려면 Enter): ",
    "save.prompt_partial": "지금까지의 게임을 저장할까요? 파일 이름 (건너뛰려면 Enter): ",
    "save.done": "게임 기록을 {path}에 저장했습니다.",
    "save.failed": "{path}에 저장하지 못했습니다: {error}",
    # 다시 보기.
    "replay.title": "다시 보기: {rules}, {players}명, {moves}수",
    "replay.unreadable": "{path}을(를) 읽을 수 없습니다: {error}",
    "replay.bad": "이 기록은 시작할 수 없습니다: {error}",
    "replay.bad_move": "{n}번째 수 ({who}: {action})가 규칙에 맞지 않습니다: {error}",
    "replay.chance": "주사위",
    "replay.round": "{round}라운드",
    "replay.reroll": "{who} 다시 굴림: {dice}",
    "replay.in_play": "끝나지 않은 라운드",
    "replay.revealed": "테이블에서 공개됨 ({n}번째)",
    "replay.hidden": "테이블에서 끝까지 공개되지 않음 (P-21)",
    "replay.next": "Enter: 다음 라운드 · q: 종료> ",
    "replay.help": "Enter를 누르면 다음 라운드, q(종료)를 누르면 멈춥니다.",
    "replay.unfinished": "게임이 끝나기 전에 기록이 끝납니다.",
    "replay.end": "기록의 끝.",
}
