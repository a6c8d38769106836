//! The game generator's unit tests.

use super::*;

fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| pairs.iter().find(|p| p.0 == name).map(|p| p.1.to_string())
}

#[test]
fn the_shard_comes_from_the_flag_or_the_batch_engine() {
    assert_eq!(which_shard(Some("2/4"), None, env(&[("SLURM_ARRAY_TASK_ID", "0")])), Ok((1, 4)));
    let slurm = [("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "8")];
    assert_eq!(which_shard(None, None, env(&slurm)), Ok((4, 8)));
    assert!(which_shard(None, None, env(&[("SLURM_ARRAY_TASK_ID", "9"), ("SLURM_ARRAY_TASK_COUNT", "8")])).is_err());
    assert_eq!(which_shard(None, Some(16), env(&[("JOB_COMPLETION_INDEX", "15")])), Ok((15, 16)));
    assert!(which_shard(None, None, env(&[("JOB_COMPLETION_INDEX", "3")])).is_err());
    assert!(which_shard(None, Some(4), env(&[("JOB_COMPLETION_INDEX", "x")])).is_err());
    assert_eq!(which_shard(None, None, env(&[])), Ok((0, 1)));
}

#[test]
fn records_round_trip_through_a_frame() {
    let run = Run { depth: 1, exact: 8, ..Run::defaults(Size::Six, 5) };
    let stop = Arc::new(AtomicBool::new(false));
    let mut solver = Solver::new(SolverOptions { hash_mb: 1, threads: 1, ..SolverOptions::default() });
    let games: Vec<Game> = (0..5).map(|g| play_game(&run, g, &mut solver, &stop).expect("not stopped")).collect();
    let bytes = frame(Size::Six, &games);
    let mut records = Vec::new();
    ZlibDecoder::new(&bytes[8..]).read_to_end(&mut records).expect("zlib");
    assert_eq!(decode(Size::Six, &records), Ok(games.clone()));
    // The same game again, after other games: the table is cleared, the stream is (seed, g).
    assert_eq!(play_game(&run, 2, &mut solver, &stop).as_ref(), Some(&games[2]));
}
