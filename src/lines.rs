//! Another program's output, read line by line as text whatever its bytes.
//!
//! Engines are not all UTF-8: an old one writes its author's name in
//! Latin-1 (`id author J\xfcrgen`). Read with `BufRead::lines`, such a line
//! ends the reading as if the engine had exited; here its bytes are read
//! with U+FFFD in place of what is not UTF-8, and reading goes on.

use std::io::BufRead;

/// Call `each` with every line of `input` (its line end and surrounding
/// white space trimmed, invalid UTF-8 replaced), until the input ends or
/// fails, or `each` returns `false` (nobody listens any more).
pub fn each_line(mut input: impl BufRead, mut each: impl FnMut(String) -> bool) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !each(String::from_utf8_lossy(&buf).trim().to_owned()) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_utf8_do_not_end_the_reading() {
        let input: &[u8] = b"id name Old\r\nid author J\xfcrgen\nuciok";
        let mut lines = Vec::new();
        each_line(input, |l| {
            lines.push(l);
            true
        });
        assert_eq!(lines, ["id name Old", "id author J\u{fffd}rgen", "uciok"]);
        let mut first = Vec::new();
        each_line(input, |l| {
            first.push(l);
            false
        });
        assert_eq!(first, ["id name Old"]);
    }
}
