module.exports = {
  displayName: 'organizations-http',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/organizations/http',
};
