from .conftest import Session, text_of


def test_probe(session: Session) -> None:
    for args in (
        dict(capture="captures/call_site_v2", function="prepare_inputs"),
        dict(capture="captures/call_site_v1", function="preprocess", against="captures/call_site_v2"),
        dict(capture="captures/call_site_v1", file="main.py", against="captures/call_site_v2"),
        dict(capture="captures/call_site_v2", file="main.py"),
    ):
        r = session.call("get_source", **args)
        print("=====", args, r.is_error, len(text_of(r)), len(str(r.structured_content)))
        print(text_of(r))
    r = session.call("compare_runs", baseline="captures/call_site_v1", candidate="captures/call_site_v2")
    print(text_of(r))
    r = session.call("compare_runs", baseline="captures/edit_v1", candidate="captures/edit_v2")
    print(text_of(r))
