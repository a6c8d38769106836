//! The shipped network against the trainer's own integer computation (`train/netfit.py`,
//! `predict_quantised`, numpy): the engine must give every checked record exactly the value the
//! trainer gave it.

use othello_explorer::eval::network::{self, SCALARS};

mod binary;
use binary::bin;

const RECORD: usize = 102;

#[test]
fn the_engine_computes_what_the_trainer_computed() {
    let net = network::shipped(8).unwrap_or_else(|| panic!("the shipped network: {:?}", network::shipped_error()));
    let bytes = include_bytes!("../data/eval/network-check-8.bin");
    assert_eq!(&bytes[..8], b"OXNNCHK1");
    let count = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    assert!(count >= 100, "a check file of {count} records");
    let mut at = 12;
    for k in 0..count {
        let r = &bytes[at..at + RECORD];
        let indexes: Vec<u16> = r[..92].chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect();
        let mut scalars = [0i16; SCALARS];
        for (s, &b) in scalars.iter_mut().zip(&r[92..97]) {
            *s = b as i16;
        }
        let empties = r[97] as usize;
        let want = i32::from_le_bytes(bytes[at + RECORD..at + RECORD + 4].try_into().unwrap());
        assert_eq!(net.evaluate_fine_parts(&indexes, &scalars, empties), want, "record {k}");
        at += RECORD + 4;
    }
    assert_eq!(at, bytes.len());
}

#[test]
fn every_searching_command_takes_eval_and_refuses_an_unknown_one_in_one_line() {
    // The start, 6 plies deep, with either evaluation.
    for eval in ["patterns", "network"] {
        let out =
            bin().args(["solve", "--eval", eval, "--depth", "6", "--no-store", "--threads", "1"]).output().unwrap();
        assert!(out.status.success(), "{eval}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("estimate:") && text.contains("depth 6"), "{eval}: {text}");
    }
    for args in [
        &["solve", "--eval", "tables"][..],
        &["bench", "data/ffo/fforum-1-19.obf", "--eval", "x"],
        &["gtp", "--eval", ""],
    ] {
        let out = bin().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("--eval") && stderr.contains("patterns or network"), "{args:?}: {stderr}");
    }
}

#[test]
fn below_ten_empties_the_network_defers_to_the_tables_and_above_it_reads_its_own() {
    // The network is not trained on the last ten empties (docs/network.md): a search that reads
    // it evaluates those positions by the pattern tables. An estimate of depth 0 is the root's
    // evaluation itself (when no exact solve takes over: more than 6 empties).
    use othello_explorer::solver::{Evaluator, Limits, Solver, SolverOptions};
    use othello_explorer::{Position, Size};
    let solver = |evaluator| Solver::try_new(SolverOptions { hash_mb: 1, threads: 1, evaluator, ..Default::default() });
    let (mut net, mut tables) = (solver(Evaluator::Network).unwrap(), solver(Evaluator::Patterns).unwrap());
    let (mut below, mut above, mut differ) = (0, 0, 0);
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for _game in 0..200 {
        let mut pos = Position::start(Size::Eight);
        while !pos.is_game_over() {
            if pos.must_pass() {
                pos = pos.pass();
                continue;
            }
            let empties = pos.empty_count();
            if (7..=14).contains(&empties) {
                net.clear();
                tables.clear();
                let (a, _) = net.estimate(&pos, 0, &Limits::default()).unwrap();
                let (b, _) = tables.estimate(&pos, 0, &Limits::default()).unwrap();
                if empties < network::READS_FROM {
                    assert_eq!(a, b, "{pos}: the network read below {} empties", network::READS_FROM);
                    below += 1;
                } else {
                    above += 1;
                    differ += usize::from(a != b);
                }
            }
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            pos = pos.play(moves[(state % moves.len() as u64) as usize]).unwrap();
        }
    }
    assert!(below > 300 && above > 300, "{below} below, {above} above");
    // From ten empties on, the network is read: its values are not the tables'.
    assert!(differ * 2 > above, "{differ} of {above} differ");
}
