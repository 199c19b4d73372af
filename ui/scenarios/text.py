"""The Scenarios page's words in Korean and English (merged by ``ui.i18n``)."""

# key: (Korean, English)
TEXT: dict[str, tuple[str, str]] = {
    # ---- the page
    "scn.intro": (
        "강의용 사례 모음입니다. 카드마다 실패 하나를 재현하는 설정과 질문이 들어 있습니다. 버튼을 "
        "누르면 사이드바 설정과 질문이 바뀌고 해당 페이지가 열립니다.",
        "The lecture gallery. Each card holds the configuration and question that reproduce one "
        "failure. A button "
        "loads them into the sidebar and opens the page that tells the story.",
    ),
    "scn.look": ("볼 곳:", "What to look at:"),
    "scn.setup": ("질문 {question} · A: {a} · B: {b}", "question {question} · A: {a} · B: {b}"),
    "scn.open.chunks": ("청크에서 열기", "Open in Chunks"),
    "scn.loaded": ("이 사례를 불러왔습니다.", "This scenario is loaded."),
    "scn.open.lecture": ("강의 화면에서 열기", "Open in Lecture view"),
}
