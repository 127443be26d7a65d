//! The schedule type: the JSON form reads back to the same schedule for
//! every kernel, and a schedule that does not fit its region is refused
//! with a message that says why.

use crate::common;

use common::all_kernels;
use polyc::lang::c::read_source;
use polyc::scop::schedule::ScheduleJson;
use polyc::scop::{Mark, Schedule};

#[test]
fn json_round_trips_for_every_kernel() {
    for path in all_kernels() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("kernel");
        let file = read_source(&name, text).expect("accepted");
        for scop in &file.scops {
            let mut sched = Schedule::original(scop);
            if let Some(first) = sched.statements[0].marks.first_mut() {
                first.push(Mark::Parallel);
                first.push(Mark::Unroll(4));
            }
            let json = serde_json::to_string(&sched.to_json(scop)).expect("serialises");
            let back: ScheduleJson = serde_json::from_str(&json).expect("parses");
            let read = Schedule::from_json(&back, scop).expect("fits");
            assert_eq!(read.to_text(scop), sched.to_text(scop), "{name}");
            assert_eq!(
                read.statements[0].marks, sched.statements[0].marks,
                "{name}"
            );
        }
    }
}

#[test]
fn schedules_that_do_not_fit_are_refused() {
    let src = "void f(int n, double A[n]) {\n#pragma scop\n\
        for (i = 0; i < n; i++)\n  A[i] = i;\n#pragma endscop\n}\n";
    let scop = read_source("f.c", src.to_string())
        .expect("accepted")
        .scops
        .remove(0);
    let refuse = |json: &str| {
        let js: ScheduleJson = serde_json::from_str(json).expect("JSON");
        Schedule::from_json(&js, &scop)
            .expect_err("refused")
            .to_string()
    };
    let one = |piece: &str, marks: &str| {
        format!(
            r#"{{"region": 1, "statements": [{{"statement": "S0", "pieces": ["{piece}"], "marks": {marks}}}]}}"#
        )
    };
    assert_eq!(
        refuse(&one("[n] -> { S0[i] -> [0, i] }", "[]")),
        "S0: a piece must have 2d + 1 dates, not 2"
    );
    assert_eq!(
        refuse(&one("[m] -> { S0[i] -> [0, i, 0] }", "[]")),
        "S0: a piece must map the 1 iterators of S0 with parameters [n]"
    );
    assert_eq!(
        refuse(&one(
            "[n] -> { S0[i] -> [0, i, 0] }",
            r#"[[], ["parallel"]]"#
        )),
        "S0: marks for 2 loops, but the schedule has 1"
    );
    assert_eq!(
        refuse(r#"{"region": 1, "statements": []}"#),
        "the schedule has 0 statements, the region has 1"
    );
    assert!(refuse(&one("[n] -> { S0[i] -> [0, i, 0", "[]")).starts_with("S0: "));
}
