module.exports = {
  displayName: 'organizations-service',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/organizations/service',
};
