import { type JobEndpointAnswer, JobEndpointRpc, JobsRpc } from '@hub/jobs-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { GetJobEndpointUseCase } from './get-job-endpoint.use-case';

/** `jobs.job.endpoint`: where a running job's exposed port answers (its container's address on the jobs network). */
@RpcController()
export class JobEndpointHandler {
  constructor(private readonly getJobEndpoint: GetJobEndpointUseCase) {}

  @RpcHandler(JobsRpc.Endpoint)
  onEndpoint(dto: JobEndpointRpc): Promise<JobEndpointAnswer> {
    return this.getJobEndpoint.execute(dto);
  }
}
