module.exports = {
  displayName: 'e2e-deploy',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/e2e-deploy',
  // The hub is a real child process with an embedded database: give its start room on 2 cores.
  testTimeout: 60000,
};
