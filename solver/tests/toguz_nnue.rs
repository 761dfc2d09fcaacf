//! The neural evaluation through the binary: `--eval nnue` searches, a
//! damaged `--net` file is refused with a message (no panic), and
//! `train-net` resumes its data file and writes a network the search reads.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_solver");

fn run(args: &[&str]) -> std::process::Output {
    Command::new(BIN).args(args).output().expect("run solver")
}

/// The best hole and the nodes of an 8-ply search of the start, under
/// `--eval EVAL` (the default evaluation when `None`).
fn best_and_nodes(eval: Option<&str>) -> (u64, u64) {
    let mut args = vec![
        "toguz",
        "search",
        "start",
        "--depth",
        "8",
        "--no-tables",
        "--json",
    ];
    if let Some(e) = eval {
        args.extend(["--eval", e]);
    }
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    (
        v["best"].as_u64().expect("best"),
        v["nodes"].as_u64().expect("nodes"),
    )
}

/// `--eval nnue` searches; it is the default; linear is another tree.
#[test]
fn the_default_evaluation_is_the_net() {
    let (best, nodes) = best_and_nodes(Some("nnue"));
    assert!((1..=9).contains(&best));
    assert_eq!(best_and_nodes(None), (best, nodes));
    assert_ne!(best_and_nodes(Some("linear")).1, nodes);
}

#[test]
fn train_net_resumes_and_damaged_nets_are_refused() {
    let dir = std::env::temp_dir().join(format!("toguz-nnue-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let net = dir.join("net.bin");
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    let train = |games: &str| {
        run(&[
            "toguz",
            "train-net",
            "--data",
            d,
            "--out",
            n,
            "--games",
            games,
            "--nodes",
            "300",
            "--engine",
            "full-endgame",
            "--epochs",
            "2",
            "--quiet",
            "--json",
        ])
    };
    let out = train("4");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = std::fs::read_to_string(&data).unwrap();
    assert_eq!(first.matches("\ne ").count(), 4);
    let out = train("6");
    assert!(out.status.success());
    let second = std::fs::read_to_string(&data).unwrap();
    // The first four games were kept, two were added.
    assert!(second.starts_with(&first));
    assert_eq!(second.matches("\ne ").count(), 6);
    let out = run(&[
        "toguz",
        "search",
        "start",
        "--depth",
        "4",
        "--no-tables",
        "--net",
        n,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut bytes = std::fs::read(&net).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&net, &bytes).unwrap();
    let out = run(&[
        "toguz",
        "search",
        "start",
        "--depth",
        "4",
        "--no-tables",
        "--net",
        n,
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("damaged"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
