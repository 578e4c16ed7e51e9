//! Where a streaming load sends its tasks: the caller's side of [`crate::load_streaming`].

use verity_model::{SourceLoc, Suite, Task};

/// Where [`load_streaming`](crate::load_streaming) sends a suite's tasks.
pub trait TaskSink {
    /// The suite as configured, before its first task: the caller may adjust it (command-line
    /// overrides) before the tasks are checked against it, or refuse it
    /// ([`SinkError::Refused`]): then no task is read.
    fn start(&mut self, suite: &mut Suite) -> Result<(), SinkError>;
    /// The suite's next task, in suite order, before it is checked against the suite (a
    /// load with errors fails as a whole, whatever the sink took). The sink finds duplicate
    /// ids: the loader keeps nothing per task.
    fn put(&mut self, task: &Task) -> Result<(), SinkError>;
}

/// Why a [`TaskSink`] did not take the suite or a task. The sink's own errors stay typed: the
/// loader shows them, and the caller that made the sink can keep the original.
#[derive(Debug)]
pub enum SinkError {
    /// A task with this id came before, defined at `first`.
    Duplicate { first: SourceLoc },
    /// The sink refuses the suite as configured (a request that does not fit it).
    Refused(Box<dyn std::error::Error + Send + Sync>),
    /// The sink cannot take more (its storage failed): loading fails with this error.
    Failed(Box<dyn std::error::Error + Send + Sync>),
}
