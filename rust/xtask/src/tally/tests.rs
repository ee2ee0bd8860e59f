use super::count_before;

#[test]
fn counts_cargo_test_result_lines() {
    let line = "ok. 12 passed; 3 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s";
    assert_eq!(count_before(line, " passed"), 12);
    assert_eq!(count_before(line, " failed"), 3);
    assert_eq!(count_before("FAILED. 0 passed; 1 failed;", " passed"), 0);
}
