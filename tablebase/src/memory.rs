//! What a generation costs in memory: the process's peak resident set, the
//! figure every `generate` reports.

/// Peak resident memory of this process in bytes (Linux's `VmHWM`), `None`
/// where the system does not say.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A byte count as the reports print it: `103.3 MiB`.
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_covers_a_buffer_just_touched() {
        // 64 MiB written page by page must be resident at some moment.
        let before = peak_resident_bytes();
        let mut buf = vec![0u8; 64 << 20];
        for i in (0..buf.len()).step_by(4096) {
            buf[i] = 1;
        }
        std::hint::black_box(&buf);
        if let (Some(b), Some(after)) = (before, peak_resident_bytes()) {
            assert!(after >= b.max(64 << 20), "{b} then {after}");
        }
        assert_eq!(mib(3 << 19), "1.5 MiB");
    }
}
