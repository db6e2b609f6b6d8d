// The public header of the runtime layer: generation jobs, the channel each reports through, and
// what runs them (JobRunner, the local Scheduler). The gateway's remote scheduler is a JobRunner.
#pragma once
#include "server/runtime/job.h"
#include "server/runtime/job_channel.h"
#include "server/runtime/job_runner.h"
#include "server/runtime/options.h"
#include "server/runtime/scheduler.h"
