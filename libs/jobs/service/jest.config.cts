module.exports = {
  displayName: 'jobs-service',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/jobs/service',
};
