//! Where a streaming load sends its tasks: the caller's side of [`crate::load_streaming`].

use verity_model::{SourceLoc, Suite, Task};

/// Where [`load_streaming`](crate::load_streaming) sends a suite's tasks.
pub trait TaskSink {
    /// The suite as configured, before its first task: the caller may adjust it (command-line
    /// overrides) before the tasks are checked against it, or refuse it with a reason.
    fn start(&mut self, suite: &mut Suite) -> Result<(), String>;
    /// The suite's next task, in suite order, before it is checked against the suite (a
    /// load with errors fails as a whole, whatever the sink took). The sink finds duplicate
    /// ids: the loader keeps nothing per task.
    fn put(&mut self, task: &Task) -> Result<(), SinkError>;
}

/// Why a [`TaskSink`] did not take a task.
#[derive(Debug)]
pub enum SinkError {
    /// A task with this id came before, defined at `first`.
    Duplicate { first: SourceLoc },
    /// The sink cannot take more (its storage failed): loading fails with this message.
    Failed(String),
}
