// `streamwright app …`: operate the application of a running runtime.
import type { Command } from 'commander';
import { addRuntimeOptions } from './options.js';

// Loaded when a command runs, so `--help` stays quick.
const appCommand = () => import('./app-command.js');
const appDeployCommand = () => import('./app-deploy-command.js');

export function registerAppCommands(program: Command): void {
  const app = program
    .command('app')
    .description("operate the runtime's application: deploy, status, lag, reset, start, stop")
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright app deploy topology.json
  $ streamwright app status --url http://127.0.0.1:4300
  $ streamwright app lag
  $ streamwright app reset --dry-run
  $ STREAMWRIGHT_TOKEN=s3cret streamwright app reset --url http://10.0.0.5:4300`,
    );

  addRuntimeOptions(
    app
      .command('deploy')
      .description('deploy a topology file, replacing the running application, and start it')
      .argument('<file>', 'topology JSON file')
      .option('--no-start', 'deploy it stopped (start it later with app start)'),
  )
    .addHelpText(
      'after',
      `
As the designer's Deploy: the runtime validates the file (against its --processors too) and
deploys nothing when it is invalid, listing every error as validate does (exit 1). A valid one
replaces the running application (closed gracefully) and its missing topics are created; an
application with the same application.id resumes from its committed offsets.

Examples:
  $ streamwright app deploy examples/kstream-vs-ktable/table-sum.topology.json
  $ streamwright app deploy topology.json --no-start --url http://127.0.0.1:4300`,
    )
    .action(async (file: string, options) =>
      (await appDeployCommand()).runAppDeploy(file, options),
    );

  addRuntimeOptions(app.command('status').description('state, tasks and recent errors'))
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright app status
  $ streamwright app status --json --url http://127.0.0.1:4300`,
    )
    .action(async (options) => (await appCommand()).runAppStatus(options));

  addRuntimeOptions(
    app
      .command('lag')
      .description("committed vs end offsets of the application's consumer group, per partition"),
  )
    .addHelpText(
      'after',
      `
The group is the application id. Repartition topics are read by the same group, so they
are listed too. A partition without a committed offset shows "-".

Examples:
  $ streamwright app lag
  $ streamwright app lag --json --url http://127.0.0.1:4300`,
    )
    .action(async (options) => (await appCommand()).runAppLag(options));

  addRuntimeOptions(
    app
      .command('reset')
      .description('reset the application to reprocess its input (it is stopped first)')
      .option('--dry-run', 'show what would be done, change nothing', false),
  )
    .addHelpText(
      'after',
      `
Like kafka-streams-application-reset plus KafkaStreams#cleanUp(): stops the application,
resets the committed offsets of its input topics to the earliest, deletes its internal topics
(<application.id>-…-repartition / -changelog) and its local state, and leaves it stopped.
Output topics are not touched.

Examples:
  $ streamwright app reset --dry-run
  $ streamwright app reset && streamwright app start`,
    )
    .action(async (options) => (await appCommand()).runAppReset(options));

  addRuntimeOptions(app.command('start').description('start the deployed application'))
    .addHelpText('after', '\nExamples:\n  $ streamwright app start --url http://127.0.0.1:4300')
    .action(async (options) => (await appCommand()).runAppStartStop('start', options));

  addRuntimeOptions(
    app.command('stop').description('stop the application gracefully (commit, close stores)'),
  )
    .addHelpText('after', '\nExamples:\n  $ streamwright app stop --url http://127.0.0.1:4300')
    .action(async (options) => (await appCommand()).runAppStartStop('stop', options));
}
