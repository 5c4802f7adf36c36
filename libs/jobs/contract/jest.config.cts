module.exports = {
  displayName: 'jobs-contract',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/jobs/contract',
};
