//! A [`DataTable`] as CSV text (RFC 4180): commas, CRLF line ends, and a
//! field quoted when it holds a comma, a quote or a line break.

use super::DataTable;

pub(crate) fn write(table: &DataTable) -> String {
    let mut out = String::new();
    for row in std::iter::once(&table.columns).chain(&table.rows) {
        for (i, field) in row.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_field(&mut out, field);
        }
        out.push_str("\r\n");
    }
    out
}

fn push_field(out: &mut String, field: &str) {
    // A field a spreadsheet would run as a formula gets a leading quote
    // (OWASP's advice for CSV injection); negative numbers stay numbers.
    let formula = match field.as_bytes() {
        [b'=' | b'+' | b'@' | b'\t' | b'\r', ..] => true,
        [b'-', next, ..] => !(next.is_ascii_digit() || *next == b'.'),
        _ => false,
    };
    let guarded;
    let field = if formula {
        guarded = ["'", field].concat();
        guarded.as_str()
    } else {
        field
    };
    if field.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        let table = DataTable {
            columns: vec!["Name".into(), "Value".into()],
            rows: vec![
                vec!["plain".into(), "1.5".into()],
                vec!["a, b".into(), "say \"hi\"".into()],
                vec!["two\nlines".into(), String::new()],
            ],
            total_rows: 3,
        };
        assert_eq!(
            write(&table),
            "Name,Value\r\nplain,1.5\r\n\"a, b\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",\r\n"
        );
    }

    #[test]
    fn text_a_spreadsheet_would_run_as_a_formula_is_kept_as_text() {
        let table = DataTable {
            columns: vec!["=HYPERLINK(\"x\")".into(), "+1".into(), "@SUM(A1)".into()],
            rows: vec![vec!["-12.5".into(), "-A1".into(), "\tx".into()]],
            total_rows: 1,
        };
        assert_eq!(
            write(&table),
            "\"'=HYPERLINK(\"\"x\"\")\",'+1,'@SUM(A1)\r\n-12.5,'-A1,'\tx\r\n"
        );
    }
}
