// Every validation problem of the document (and those the runtime reported on the last deploy),
// each with its JSON path. Choosing one selects its node and brings it into view.
import { useReactFlow } from '@xyflow/react';
import { useActions, useDesigner } from '../store/context.js';
import { validationOf, type Problem } from '../model/validation.js';
import { Time } from '../time/Time.js';

function ProblemList({ problems, testId }: { problems: readonly Problem[]; testId: string }) {
  const actions = useActions();
  const { getNode, setCenter } = useReactFlow();
  const reveal = (nodeId: string) => {
    actions.select(nodeId);
    const node = getNode(nodeId);
    if (node) {
      const w = node.measured?.width ?? 200;
      const h = node.measured?.height ?? 80;
      void setCenter(node.position.x + w / 2, node.position.y + h / 2, { zoom: 1, duration: 200 });
    }
  };
  return (
    <ul className="sw-problems" data-testid={testId}>
      {problems.map((p, i) => (
        <li key={`${p.path}:${i}`}>
          <button
            type="button"
            className="sw-problem"
            data-testid="problem"
            data-node-id={p.nodeId}
            disabled={!p.nodeId}
            onClick={() => p.nodeId && reveal(p.nodeId)}
          >
            <span className="sw-problem__message">
              {p.position ? `Line ${p.position.line}, column ${p.position.column}: ` : ''}
              {p.message}
              {p.fix && (
                <span className="sw-problem__fix" data-testid="problem-fix">
                  Fix: {p.fix}
                </span>
              )}
            </span>
            <code className="sw-problem__path">{p.path}</code>
            {p.nodeId && <span className="sw-problem__node">{p.nodeId}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function ProblemsPanel() {
  const problems = useDesigner((s) => validationOf(s.doc, s.existingTopics).problems);
  const server = useDesigner((s) => s.serverProblems);
  // what the runtime already said is listed once, under its heading
  const reported = new Set(server?.problems.map((p) => `${p.path}\n${p.message}`));
  const local = problems.filter((p) => !reported.has(`${p.path}\n${p.message}`));
  // a deploy that failed at start, as app.status keeps it until the next deploy (also after a reload)
  const failure = useDesigner((s) => s.live.status?.lastFailure ?? null);
  const deployFailure = failure?.phase === 'deploy' ? failure : null;
  const startFailed = server?.problems.some((p) => p.code === 'start_failed') ?? false;
  const empty = problems.length === 0 && !server && !deployFailure;
  return (
    <div className="sw-problems-panel" data-testid="problems-panel">
      {server && server.origin === 'deploy' && (
        <section>
          <h3 className="sw-subtitle sw-subtitle--error">
            {startFailed
              ? 'The deploy failed when the new version started'
              : 'The runtime refused the deploy: nothing was deployed'}
          </h3>
          <ProblemList problems={server.problems} testId="deploy-problems" />
        </section>
      )}
      {deployFailure && !startFailed && (
        <section data-testid="last-deploy-failure">
          <h3 className="sw-subtitle sw-subtitle--error">
            The last deploy failed at <Time ms={deployFailure.at} />
            {deployFailure.previousVersionKept ? ': the previous version runs' : ''}
          </h3>
          <p className="sw-problem__message" data-testid="last-deploy-failure-message">
            {deployFailure.message}
          </p>
        </section>
      )}
      {local.length > 0 && <ProblemList problems={local} testId="problem-list" />}
      {empty && (
        <p className="sw-empty" data-testid="no-problems">
          No problems: the topology is valid.
        </p>
      )}
    </div>
  );
}
